"""A chat record as recall shows it: the message whole, its neighbours cut short.

A record's stored window (`omoide.memory.chat_window`) is what recall matches. What it shows
of a neighbour: a short one whole (a line of the conversation, which the list then shows: a
record whose own message it is folds there, `omoide.memory.distinct`), of a long one (an
assistant's answer) its first words, which say what the message answers or what answered
it. Kept apart from the window's format, which the benchmarks' cached homes are keyed by,
since this changes what is shown and not what is stored.
"""

from __future__ import annotations

from omoide.memory.chat_window import cut, is_context

# A neighbour stored whole (records.CONTEXT_WORDS: a LoCoMo message is ~20 words, 90 % under
# 40) is shown whole; of one cut when stored (an assistant's answer, ~290 words in
# LongMemEval), the first CUT_WORDS. Measured in docs/benchmarks.md ("Chat records matched as
# a window, shown as the message"): at 60 or less, LongMemEval's user turns (49 words) shown
# as an answer's context are cut, and the record whose message they are no longer folds.
WHOLE_WORDS = 80
CUT_WORDS = 20


def evidence(content: str) -> str:
    """A record's stored text -> what recall shows: a chat window's long neighbours cut to their first CUT_WORDS words; other texts as they are."""
    return "\n".join(_shown_context(x) if is_context(x) else x for x in content.splitlines())


def _shown_context(line: str) -> str:
    """A neighbour's line ("↑ speaker: text") -> itself when its text is short, else its text cut to CUT_WORDS words."""
    head, sep, text = line.partition(": ")  # records write every line "speaker: text"
    return line if len(text.split()) <= WHOLE_WORDS else f"{head}{sep}{cut(text, CUT_WORDS)}"


def own_text(content: str) -> str:
    """A record's text -> the record's own words: a chat record's message without its marked neighbours; other texts as they are."""
    own = [x for x in content.splitlines() if not is_context(x)]
    return "\n".join(own) if own else content
