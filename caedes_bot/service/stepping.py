"""``/umpire set step``: the umpire sets the step of the turn under way (R-PBP-UMP-01).

Forward is the rules' :class:`~caedes_bot.rules.umpire_step.SetStep` (the steps between played
by their defaults, as ``/umpire advance`` does). Back is a rollback to the point where the
chosen step began (:class:`~caedes_bot.rules.replay.RollBack`, decision 0023), found by a replay
of the order log (:func:`~caedes_bot.service.rollback.step_starts_of`): the game is as it was
then, its deadlines with it, and the dice never go back. Either way it is one order of the log,
announced and written to the audit log with the step before and after (decision 0022).
"""

from __future__ import annotations

import asyncio

from sqlalchemy.engine import Connection

from caedes_bot.domain.records import CampaignStatus, StoredOrder
from caedes_bot.persistence import repository as repo
from caedes_bot.rules.errors import RuleViolation
from caedes_bot.rules.replay import RollBack
from caedes_bot.rules.state import Step
from caedes_bot.rules.umpire_step import RULE, SetStep
from caedes_bot.service.orders import Orders
from caedes_bot.service.rollback import step_starts_of
from caedes_bot.service.values import Actor, SubmitResult


class Stepping(Orders):
    """The umpire's direct change of the step."""

    async def set_step(
        self,
        campaign_id: int,
        actor: Actor,
        step: Step,
        *,
        turn_of: str | None = None,
        interaction_id: str | None = None,
    ) -> SubmitResult:
        """Set the game to ``step`` of the turn under way, or of ``turn_of``'s turn in this game
        round (R-PBP-UMP-01): later by ``SetStep``, earlier by a rollback to where that step
        began. One order, one transaction, as :meth:`submit`.

        Raises:
            NotAuthorised: neither the umpire nor an admin (R-PBP-UMP-01).
            CampaignNotActive: the campaign is not running.
            RuleViolation: no turn under way; the step is the current one; a faction not in
                the game; an earlier step the turn never rested at (it ran by itself), with
                those it may go back to; the log does not replay (a rollback cannot be
                reproduced).
        """
        cached = await self._load(campaign_id)
        state = cached.state
        active = state.active
        target = turn_of or active
        order = state.in_play
        ahead = (
            active is None
            or target not in order
            or (target == active and step >= state.step)
            or (target != active and order.index(target or "") > order.index(active))
        )
        if ahead:
            forward = SetStep("UMPIRE", step, turn_of=None if target == active else target)
            return await self.submit(campaign_id, actor, forward, interaction_id=interaction_id)
        assert target is not None
        back = RollBack("UMPIRE", to_seq=0)
        self._authorise(cached, actor, back, CampaignStatus.ACTIVE)  # before any replay
        info = cached.info

        def _tx(conn: Connection) -> list[StoredOrder]:
            return repo.list_orders(conn, campaign_id)

        orders = await self.db.read(_tx)
        first = self._new_game(self.ruleset, info.scenario, state.dice_seed)
        starts = await asyncio.to_thread(
            step_starts_of, first, self.ruleset, self._apply, orders, state
        )
        seq = starts.get((target, step))
        if seq is None:
            steps = ", ".join(f"step {s.label}" for f, s in sorted(starts) if f == target)
            raise RuleViolation(
                f"The turn of {target} in this game round never stopped at step {step.label} "
                "(it ran by itself or was not reached), so there is no start of it to go back "
                "to.",
                rule=RULE,
                allowed=f"back to {steps} of that turn, or a later step"
                if steps
                else "a later step",
            )
        return await self.submit(
            campaign_id, actor, RollBack("UMPIRE", to_seq=seq), interaction_id=interaction_id
        )
