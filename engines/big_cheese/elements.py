"""The Big Cheese's elements (`engines.elements`): its two special cards, the Veto and the Big
Cheese (a re-roll of one's own project).  Each is forbidden by refusing its action, whose
kind counts it played; the components are official, so neither can be taken out."""

from __future__ import annotations

from engines.big_cheese.actions import ACTION_KINDS, KIND_OF_ACTION
from engines.elements import of_kinds

ELEMENTS = of_kinds(ACTION_KINDS, "special card", KIND_OF_ACTION, ("Veto", "Big Cheese re-roll"),
                    note="the components are official, with no replaceable data set")
