"""A person's name as a question writes it ("Peter", "ピーター", "ミナさん", "@mina") -> the names the records know them by.

The names known are the `people` setting's, the entity pages' (`vault/bank/entities/*.md`:
their `name` and `aliases`) and the chat speakers seen. A name as asked means a known one
when, in order: the two are equal ignoring case, an `@` and a Japanese honorific (さん, くん,
ちゃん, 様, 氏, 先生); their slugs are equal (omoide.reflect.entities: `Péter` is `peter`, and
the transliteration makes `ミナ` `mina`); the asked name is the first word of a known full
name; or a name written in katakana sounds like a known Latin one. That last test reads the
katakana with text-unidecode (python-slugify's transliterator: ピーター -> "pita") and
compares consonant skeletons, the way katakana renders English (no final r, l as r, v as b,
voiced and unvoiced alike): "pita" and "Peter" are both p-t. It is a loose test, so it is
only taken when it names exactly one known person.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import yaml
from text_unidecode import unidecode

from omoide.reflect.entities import entity_slug

HONORIFICS = ("さん", "くん", "君", "ちゃん", "さま", "様", "氏", "先生")
_KATAKANA = re.compile(r"^[\u30a0-\u30ff・\s]+$")
_POSSESSIVE = re.compile(r"['’]s$")
# Before the skeleton: English spellings katakana renders by sound, then voiced as unvoiced.
_SOUNDS = (
    ("ph", "f"),
    ("ck", "k"),
    ("th", "s"),
    ("sh", "s"),
    ("ch", "s"),
    ("x", "ks"),
    ("q", "k"),
    ("c", "k"),
    ("l", "r"),
    ("v", "b"),
    ("w", ""),
    ("j", "s"),
    ("z", "s"),
    ("d", "t"),
    ("g", "k"),
    ("b", "p"),
)
_VOWELS = "aeiouy"


def bare(name: str) -> str:
    """A name as written -> without '@', a possessive, a Japanese honorific and surrounding space."""
    out = _POSSESSIVE.sub("", name.strip().strip("“”\"'「」?？").lstrip("@").strip())
    for suffix in HONORIFICS:
        if out.endswith(suffix) and len(out) > len(suffix):
            return out[: -len(suffix)].strip()
    return out


def _skeleton(latin: str) -> str:
    """Latin letters -> their consonants as katakana keeps them, the first letter kept (vowel or not)."""
    word = re.sub(r"[^a-z]", "", latin.casefold())
    if not word:
        return ""
    for spelled, sound in _SOUNDS:
        word = word.replace(spelled, sound)
    word = word[:1] + word[1:].replace("h", "")  # katakana sounds no h after a letter: "John"
    word = re.sub(r"r(?![aeiouy])", "", word)  # Peter -> ピーター: no r after a vowel
    head, rest = word[:1], word[1:]
    consonants = "".join(c for c in rest if c not in _VOWELS)
    return re.sub(r"(.)\1+", r"\1", head + consonants)


def _reading(katakana: str) -> str:
    """A name in katakana -> its Latin reading (sokuon and the long mark dropped: they are no consonants)."""
    return unidecode(re.sub(r"[ッっー・\s]", "", katakana))


def sounds_like(asked: str, known: str) -> bool:
    """A name in katakana + a Latin name -> whether katakana would write that name so (whole, or one of its words)."""
    if not _KATAKANA.match(asked) or not re.search(r"[A-Za-z]", known):
        return False
    sound = _skeleton(_reading(asked))
    return bool(sound) and sound in {_skeleton(known), *(_skeleton(w) for w in known.split())}


def same_name(asked: str, known: str) -> bool:
    """A name as asked + a known name -> whether they are one by spelling (case, '@', honorific, slug, first name)."""
    a, k = bare(asked), bare(known)
    if not a or not k:
        return False
    if a.casefold() == k.casefold() or entity_slug(a) == entity_slug(k):
        return True
    first = k.split()[0] if " " in k else ""
    return bool(first) and entity_slug(a) == entity_slug(first)


def meant(asked: str, known: Iterable[str]) -> list[str]:
    """A name as asked + the known names -> the known names it means (by spelling; else the one it sounds like), in order."""
    names = list(dict.fromkeys(n for n in known if n and n.strip()))
    spelled = [n for n in names if same_name(asked, n)]
    if spelled:
        return spelled
    sounded = [n for n in names if sounds_like(bare(asked), n)]
    # Two people a katakana name could be (not one written short and in full): neither is guessed.
    one = all(same_name(a, b) or same_name(b, a) for a in sounded for b in sounded)
    return sounded if one else []


def page_names(vault_dir: Path) -> dict[str, tuple[str, ...]]:
    """Vault -> {entity page name: its aliases} from the front matter of `bank/entities/*.md`."""
    out: dict[str, tuple[str, ...]] = {}
    for path in sorted((vault_dir / "bank" / "entities").glob("*.md")):
        front = _front_matter(path)
        name = front.get("name")
        if isinstance(name, str) and name.strip():
            aliases = front.get("aliases")
            found = [a for a in aliases if isinstance(a, str)] if isinstance(aliases, list) else []
            out[name.strip()] = tuple(found)
    return out


def _front_matter(path: Path) -> dict:
    """Markdown page -> its YAML front matter ({} when it has none or it does not parse)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    if not text.startswith("---"):
        return {}
    head, sep, _ = text[3:].partition("\n---")
    if not sep:
        return {}
    try:
        found = yaml.safe_load(head)
    except yaml.YAMLError:
        return {}
    return found if isinstance(found, dict) else {}


def spellings(
    name: str, pages: dict[str, tuple[str, ...]], others: Sequence[str] = ()
) -> list[str]:
    """A known name + the entity pages + other names known -> every spelling of that person the records may write."""
    out = [name]
    for page, aliases in pages.items():
        if same_name(name, page) or any(same_name(name, a) for a in aliases):
            out += [page, *aliases]
    out += [o for o in others if same_name(name, o)]
    return list(dict.fromkeys(bare(n) for n in out if bare(n)))
