"""HEIST: the shape of what ``view`` returns, shared by the engine (``views.py``), the bot
(``bot_player.py``) and the renderer (``rendering/heist.py``). A renamed or missing field is an error
for the type checker (``tests/test_typecheck.py``), not a blank spot on a board. (No ``from __future__
import annotations``: NotRequired must be seen at run time for the required keys to be right.)"""

from typing import Any, NotRequired, TypedDict


class HeatSpaceView(TypedDict):
    """One space of the heat track: the tokens its round adds to the bag, and whether it is done."""
    round: int
    colour: str
    count: int
    done: bool


class SkillTestView(TypedDict):
    """One skill test an obstacle offers ("Agility 5"; several skills are added up)."""
    skills: list[str]
    target: int
    label: str


class ObstacleView(TypedDict):
    """An obstacle as printed, plus whether it is Mandatory or its job's finale in this game."""
    id: str
    name: str
    job: str
    cheese: int
    mandatory: bool
    finale: bool
    tests: list[SkillTestView]
    test_text: str
    success: str
    failure: str


class JobView(TypedDict):
    """A job: its obstacles left (the top one can be faced), and whether it is complete or being faced."""
    letter: str
    name: str
    left: int
    length: int
    stack: list[str]
    top: ObstacleView | None
    completed: bool
    active: bool


class PlayerView(TypedDict):
    """A thief as everyone sees them: identity, skills, where their pawn is, hand size and score pile."""
    seat: int
    name: str
    identity: str
    base: dict[str, int]
    skills: dict[str, int]
    upgrades: list[str]
    location: str | None
    hand: int
    pile: list[str]
    pile_obstacles: list[str]
    cheese: int
    head_start: int  # the start player's cheese at the end where the rules set gives one (else 0)
    wins_ties: bool  # the start player, where the rules set lets it win a tie on cheese


class CardView(TypedDict):
    """A resource card; ``id`` where a move may name it (a hand, played tricks)."""
    name: str
    kind: str
    text: str
    cheese: int
    upgrade: str | None
    id: NotRequired[str]


class AssistView(CardView):
    """An assist card revealed on the current test, and who gave it."""
    seat: int


class TokenView(TypedDict):
    """A drawn token: its colour, the face it landed on, that face's value, and whether it is ignored."""
    colour: str
    face: int
    value: int
    ignored: bool


class TotalsView(TypedDict):
    """The current test's total, part by part, against its target."""
    skill: int
    assists: int
    tokens: int
    tricks: int
    total: int
    target: int
    success: bool


class CurrentTestView(TypedDict):
    """The obstacle being faced: the commits (hidden until revealed), assists, tokens and tricks."""
    seat: int
    job: str
    obstacle: ObstacleView
    option: int
    label: str
    target: int
    revealed: bool
    committed: list[int]
    waiting: list[int]
    assists: list[AssistView]
    tokens: list[TokenView]
    tricks: list[CardView]
    numbers: NotRequired[TotalsView]


class LastAssistView(TypedDict):
    """An assist of the previous test: who gave which card."""
    seat: int
    name: str


class LastView(TypedDict):
    """The previous test, for the board: who faced what, the result, and the cards and tokens on it."""
    seat: int
    obstacle: str
    name: str
    label: str
    total: int
    target: int
    success: bool
    tokens: list[TokenView]
    assists: list[LastAssistView]
    tricks: list[str]


class ScoreView(TypedDict):
    """A seat's final result (the engine contract's score row)."""
    seat: int
    score: int
    rank: int
    won: bool
    detail: str


class SecretResultView(TypedDict):
    """A secret revealed at the end of the game, and whether it was met."""
    seat: int
    name: str
    text: str
    cheese: int
    met: bool


class SecretView(TypedDict):
    """The viewer's own secret, whether it would be met if the game ended as it stands, and how far along it is as
    counts ("3/5 upgrade cards")."""
    id: str
    name: str
    text: str
    cheese: int
    met_now: bool
    progress: str


class HeistPrivate(TypedDict):
    """What only one seat sees: its hand, its secret and, before the reveal, what it committed (or the assist card it
    picked and has still to pay for)."""
    seat: int
    hand: list[CardView]
    secret: SecretView
    commit: NotRequired[str]
    picking: NotRequired[str]  # the id of the assist card picked, to be paid for (the seat is away from the job)


class HeistView(TypedDict):
    """The board everyone sees; a seat's view adds ``private``; a finished game adds scores and secrets."""
    game: str
    names: list[str]
    n: int
    round: int
    rounds: int
    phase: str
    active: int
    start: int
    options: dict[str, Any]
    status: str
    over: bool
    heat: list[HeatSpaceView]
    bag: dict[str, int]
    bag_total: int
    supply: dict[str, int]
    faces: dict[str, list[int]]  # each token colour's two faces (front first)
    spent: list[str]
    deck: int
    discard: int
    discard_top: str | None
    boxed: list[str]
    completed: list[str]
    tests: int
    failed: int
    jobs: list[JobView]
    players: list[PlayerView]
    test: CurrentTestView | None
    last: LastView | None
    scores: NotRequired[list[ScoreView]]
    secrets: NotRequired[list[SecretResultView]]
    private: NotRequired[HeistPrivate]
