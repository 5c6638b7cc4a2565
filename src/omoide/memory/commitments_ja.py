"""A Japanese sentence of the person's own -> whether it is a promise, a plan or a to-do (the forms of `omoide.memory.commitments`).

Japanese leaves the subject out, so a form alone says little: 送るね is "I'll send it", 降るよ is
"it will rain". A sentence counts when its end is a form of doing, nothing in it hedges,
asks or names another subject, and, for a form that also describes (送ります, 行く), something
says it is the person's plan: a time it is due, the person named as subject, a closing particle
(ね, よ, わ, ぞ, から), or a verb of doing for someone (連絡します, 確認します, お送りします).
"""

from __future__ import annotations

import re

# The sentence's end, once its closing punctuation and laughter are taken off.
_TAIL = re.compile(r"[\s。．.！!？?〜~ー…♪☆★☺️wｗ笑]+$")
_QUESTION = re.compile(r"[？?]\s*$|(?:か|かな|かね|かい|の|っけ)[\s。〜ー]*$")
# A hedge, a condition on a state or an offer (時間があったら, よかったら), a guess, a report.
_HEDGE = re.compile(
    r"もし|なら(?!な)|(?<!なけ)れば|かも|たぶん|多分|だろう|でしょう|かな|と思|って思|みたい|らしい"
    r"|(?:あっ|だっ|でき|なっ|よかっ|行け)たら|って言(?:って|われ|った)|と言(?:って|われ|った)"
)
# Another subject: a word in kanji, katakana or letters (a name before its さん) followed by が,
# not the person (私が持っていくね); hiragana before が is mostly the conjunction (ですが).
_SUBJECT = re.compile(
    r"(?P<who>[一-龯々ァ-ヴーA-Za-z0-9]+)(?:さん|くん|ちゃん|様|氏|先生)?が(?!ん)"
)
_ME = frozenset({"私", "僕", "俺", "自分", "我々", "当方"})
_FIRST_PERSON = re.compile(r"私|僕|俺|自分|わたし|ぼく|おれ|あたし")

_PROMISE = re.compile(r"約束")
_NOT_MINE = re.compile(
    r"約束(?:して(?:ね|よ|くれ|ください|ほしい)|を破|が|は|してくれ|された|したのに)"
)
_TODO = re.compile(
    r"(?:なきゃ|なくちゃ|なけりゃ|なければ(?:ならない|いけない|ダメ|だめ)?"
    r"|ないと(?:いけない|ダメ|だめ)?|ねば(?:ならない)?)(?:ね|な|よ)?$"
)
_KEEP_READY = re.compile(r"(?:てお|でお|っと|んど|しと)(?:く|きます|こう)(?:ね|よ|わ|ぞ|から)?$")
_INTENT = re.compile(r"(?:[うくぐすつぬぶむる])(?:つもり|予定)(?:です|だ|だよ|だね|よ|ね)?$")
# A verb's plain form (a dictionary form ends in the u-row; a volitional 行こう ends in o + u).
_PLAIN = re.compile(
    r"(?:[くぐすつぬぶむる]|(?<![おこごそぞとどのほぼぽもよろょ])う)"
    r"(?P<particle>ね|よ|わ|ぞ|ぜ|からね|から|ねー|よー)?$"
)
_POLITE = re.compile(r"ます(?P<particle>ね|よ|ので|から)?$")
# Verbs of a state or of nothing done: 分かるよ, あるよ, 遅れるね, 行けます.
_STATE = re.compile(
    r"(?:てる|でる|ている|でいる|ある|いる|なる|できる|分かる|わかる|思う|知る|見える|聞こえる|要る"
    r"|違う|ちがう|遅れる|困る|似る|すぎる|過ぎる|いい)(?:ね|よ|わ|ぞ|ぜ|からね|から|ねー|よー)?$"
    r"|(?:い|あり|思い|でき|分かり|わかり|なり|見え|聞こえ|要り|違い|存じ|申し|おり|困り|遅れ|すぎ|過ぎ)"
    r"ます(?:ね|よ|ので|から)?$"
)
_SET_PHRASE = re.compile(
    r"お願い(?:いた|致)?します|失礼(?:いた|致)?します|お疲れ|(?:気|感じ|音|匂い)がします"
    r"|(?:意味|存在|発生|表示|該当|相当|関係|依存)します"
)
# Doing for someone: with one of these a polite form is the person's own act.
_FOR_SOMEONE = re.compile(
    r"(?:連絡|確認|返信|送付|対応|報告|準備|予約|電話|提出|共有|手配|用意|調整|修正|送信|参加|出席"
    r"|返却|持参|案内|相談|折り返し|お送り|お持ち|お届け|ご連絡|ご報告|ご案内|お返事)"
    r"(?:を)?(?:し|いたし|致し)ます$|(?:送り|伺い|届け|持っていき)ます$"
)
_OPENING = re.compile(
    r"^(?:うん|はい|了解(?:です)?|りょうかい|おっけー|オッケー|OK|ok|わかった|分かった|わかりました"
    r"|分かりました|承知しました|じゃあ|では|よし|いいよ|ありがとう(?:ございます)?)[、,!！\s]+"
)


# A closing particle after the verb: said to the listener, not part of what was promised.
_CLOSING = re.compile(r"(?<=[^\s])(?:からね|から|ねー|よー|よね|ね|よ|わ|ぞ|ぜ)$")


def tail_off(sentence: str) -> str:
    """A sentence -> without its closing punctuation, laughter and marks."""
    return _TAIL.sub("", sentence).strip()


def _other_subject(sentence: str) -> bool:
    """A sentence -> does a subject other than the person do what it says?"""
    return any(m["who"] not in _ME for m in _SUBJECT.finditer(sentence))


def japanese_action(sentence: str, has_due: bool) -> str | None:
    """A Japanese sentence of the person's + whether a time word names when it is due -> what they promised or planned, as written, or None."""
    if _QUESTION.search(sentence) or _HEDGE.search(sentence) or _other_subject(sentence):
        return None
    s = tail_off(sentence)
    if not s:
        return None
    if _PROMISE.search(s):
        found = not _NOT_MINE.search(s)
    elif _TODO.search(s) or _KEEP_READY.search(s) or _INTENT.search(s):
        found = True
    elif _STATE.search(s) or _SET_PHRASE.search(s):
        found = False
    elif m := _POLITE.search(s):
        said_so = has_due or m["particle"] is not None or bool(_FIRST_PERSON.search(s))
        found = said_so or bool(_FOR_SOMEONE.search(s[: m.end() - len(m["particle"] or "")]))
    elif m := _PLAIN.search(s):
        found = m["particle"] is not None or has_due
    else:
        found = False
    if not found:
        return None
    return _CLOSING.sub("", _OPENING.sub("", s)).strip() or None
