"""Each step's wording for players, in one place (ux.md "The turn panel"; R-TURN-02).

The rules say what a step does and when it waits (its ``StepSpec`` in the step's module); this
module says how that reads to a player: what the step is for, with the rule that says so, the
commands and buttons that serve it, the label of the button that ends it, and the label of the
menu button the turn panel shows for it. The turn panel, ``/help``, the private answers and the
step line all read :data:`STEPS`, so a step reads the same everywhere. Pure data: no discord,
no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from caedes_bot.rules.state import Step

__all__ = [
    "FIGHT_OPTION",
    "FIGHT_PLACEHOLDER",
    "MARKS_COMMANDS",
    "MARKS_MENU",
    "STEPS",
    "MenuButton",
    "StepWording",
    "now_text",
    "over_text",
    "step_line",
    "wording",
]


@dataclass(frozen=True, slots=True)
class MenuButton:
    """The turn panel's button that opens a step's private menu.

    Attributes:
        action: the action part of its custom_id (``buy``), which the turn cog answers.
        label: what it reads (``Buy…``). style: a style name of :data:`caedes_bot.ui.views.STYLES`.
        emoji: shown before the label, if any.
    """

    action: str
    label: str
    style: str = "primary"
    emoji: str | None = None


@dataclass(frozen=True, slots=True)
class StepWording:
    """How one step reads to players.

    Attributes:
        rule: the rule ID the step is built on (``R-BUY-01``).
        purpose: what the step is for, in a sentence or two (the turn panel, ``/help``).
        commands: what the active faction can do in it: its commands and buttons (``/help``).
        done: the label of the button that ends the step and lets the turn move on, for a step
            that waits for the faction; ``None`` for a step that runs by itself.
        menu: the turn panel's button that opens the step's menu, if the step has one.
    """

    rule: str
    purpose: str
    commands: str
    done: str | None = None
    menu: MenuButton | None = None


#: The turn panel's button that marks units to be disbanded at upkeep, in a step before step 4
#: that has no menu of its own (R-UPK-02 as ruled: marking is of no single step).
MARKS_MENU = MenuButton("disband", "Disband at upkeep…", style="danger")

#: How units are marked, for the commands of the steps before step 4.
MARKS_COMMANDS = (
    "**Disband at upkeep…** on the turn panel or `/disband unit` marks units (or takes a mark "
    "back) to be disbanded when step 4 begins (R-UPK-02)."
)

#: Every step's wording, in turn order.
STEPS: Mapping[Step, StepWording] = {
    Step.TRADE: StepWording(
        rule="R-TRADE-01",
        purpose="Trade RP and commodities with other factions; offers lapse when the step ends.",
        commands=(
            "`/trade offer` (then the other side answers with the buttons in its thread or "
            "`/trade accept`); **Done trading** on the turn panel or `/done`. "
        )
        + MARKS_COMMANDS,
        done="Done trading",
    ),
    Step.REDEEM: StepWording(
        rule="R-COMM-02",
        purpose=(
            "Redeem commodities: sets for RP, Iron for RP, Salt against upkeep, or earmark "
            "discounts for this turn's purchases."
        ),
        commands=(
            "`/redeem sets`, `/redeem iron`, `/redeem salt`, `/redeem earmark`; **Done "
            "redeeming** or `/done`. "
        )
        + MARKS_COMMANDS,
        done="Done redeeming",
    ),
    Step.COLLECT: StepWording(
        rule="R-COLL-04",
        purpose="Collect RP and commodities from the provinces you hold.",
        commands="Nothing to do: it runs by itself.",
    ),
    Step.UPKEEP: StepWording(
        rule="R-UPK-01",
        purpose=(
            "Upkeep runs by itself: the units you marked are disbanded, then 1 RP is paid for "
            "every 6 units left (Undead are free). It waits only if your RP cannot cover the "
            "bill, when you must disband more (R-UPK-03), or if the campaign lets you disband "
            "during the step (R-UPK-02)."
        ),
        commands="**Disband…** on the turn panel or `/disband unit`; **Pay upkeep** or `/done`.",
        done="Pay upkeep",
        menu=MenuButton("disband", "Disband…", style="danger"),
    ),
    Step.BUY: StepWording(
        rule="R-BUY-01",
        purpose="Buy units of your order of battle; they wait off the board until step 8.",
        commands="**Buy…** on the turn panel or `/buy unit count`; **Done buying** or `/done`.",
        done="Done buying",
        menu=MenuButton("buy", "Buy…", emoji="🛒"),
    ),
    Step.MOVE: StepWording(
        rule="R-MOVE-01",
        purpose=(
            "Move any of your units; entering a province held by another faction's units is an "
            "attack, fought in step 7."
        ),
        commands=(
            "**Move…** on the turn panel or `/move units from to`; at sea `/sail`, `/embark` "
            "and `/disembark`; **Done moving** or `/done`."
        ),
        done="Done moving",
        menu=MenuButton("move", "Move…", emoji="🚶"),
    ),
    Step.COMBAT: StepWording(
        rule="R-COMBAT-01",
        purpose="Fight a battle in each province you attacked, in the order you choose.",
        commands=(
            "**Fight…** on the turn panel or `/attack province`; then **Press on** / "
            "**Withdraw** and the casualty choice on the battle message in #battles; **Done** "
            "or `/done`."
        ),
        done="Done with battles",
    ),
    Step.MUSTER: StepWording(
        rule="R-MUSTER-01",
        purpose=(
            "Place the units you bought this turn; anything left is placed by the bot, or lost "
            "if nowhere can take it."
        ),
        commands=(
            "**Muster…** on the turn panel or `/muster unit province`; **Done mustering** or "
            "`/done` places the rest."
        ),
        done="Done mustering",
        menu=MenuButton("muster", "Muster…", emoji="🏳️"),
    ),
}

#: The placeholder of step 7's select of battles, and the label of each of its options.
FIGHT_PLACEHOLDER = "Fight a battle…"
FIGHT_OPTION = "Fight at {place}"


def wording(step: Step) -> StepWording:
    """The wording of ``step``."""
    return STEPS[step]


def step_line(step: Step) -> str:
    """``"~~1 Trade~~ · … · **5 Buy** · 6 Move …"``: the steps done struck through, the current
    one in bold (R-TURN-02)."""
    parts = []
    for s in Step:
        if s < step:
            parts.append(f"~~{s.label}~~")
        elif s == step:
            parts.append(f"**{s.label}**")
        else:
            parts.append(s.label)
    return " · ".join(parts)


def now_text(step: Step) -> str:
    """``"step 5 Buy (R-BUY-01). Buy units…"``: the step the turn is at, with its purpose."""
    words = STEPS[step]
    return f"step {step.label} ({words.rule}). {words.purpose}"


def over_text(step: Step) -> str:
    """``"Step 5 Buy is over."``: the headline of the answer to a step's Done button."""
    return f"Step {step.label} is over."
