"""Combat, step 7 of a turn (R-COMBAT-01..11, R-COMBAT-13, R-COMBAT-15).

* :mod:`.arithmetic`: values, dice, casualties and hit sharing, as pure functions of unit kinds
  and fighters; the odds calculator (:mod:`caedes_bot.rules.odds`) uses the same ones, so odds
  and battles cannot disagree.
* :mod:`.sides`: who fights on which side, on which terrain, and who may withdraw, read from
  the game state.
* :mod:`.battle`: the battle in the game state, fought round by round until a decision is
  needed or it ends; the work done when step 6 and step 7 end.
* :mod:`.orders` and :mod:`.events`: what players order in a battle and what it reports.

Naval battles (R-COMBAT-14), the optional special actions of R-COMBAT-12 and magic in battle
are not built yet; each will get its own module here. Until then units with those attributes
fight with normal dice, and the landing cavalry penalty (R-MOVE-20), flying withdrawal limits
(R-ATTR-FLY-02) and blitz continuation (R-ATTR-BLITZ-02) do not apply.
"""
