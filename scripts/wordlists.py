"""The free word lists the engine ships for Spanish, Catalan and English, rebuilt from Debian's packages.

    python scripts/wordlists.py [--only es ca en] [--work DIR]
    python scripts/wordlists.py --compare [--work DIR]

Each list is made from Debian 12 ("bookworm") packages fetched by ``apt-get download`` at the versions
pinned below (``apt-get update`` first; no install, no root needed) and unpacked by ``dpkg-deb -x``:

* ``es-hunspell``: ``hunspell-es`` 1:7.5.0-1 (``es_ES.aff``/``.dic``, Santiago Bosio's Spanish
  dictionary as LibreOffice ships it, GPL-3+ or LGPL-3+ or MPL-1.1+);
* ``ca-hunspell``: ``hunspell-ca`` 3.0.7+repack1-5 (``ca.aff``/``.dic``, Softcatalà's Catalan
  dictionary, GPL-2+ and LGPL-2.1+);
* ``en-scowl``: ``scowl`` 2020.12.07-2, Kevin Atkinson's SCOWL lists of words (not its abbreviations,
  proper names or contractions) up to size 80, in every spelling (American, British with -ise and
  -ize, Canadian, Australian) and their variants of levels 1 and 2; SCOWL's own licence, permissive,
  whose notices travel with the list.

Each package's copyright file is copied beside its list (``<list>.copyright``).

A hunspell dictionary is a list of stems with flags naming affix rules; it is expanded here to every
form hunspell accepts (``Hunspell.expand``: prefixes and suffixes with their conditions, the cross
product of a prefix and a suffix, a second suffix named by a suffix's continuation flags, a prefix
enabling a suffix, ``FULLSTRIP``, ``FORBIDDENWORD``, ``NEEDAFFIX`` and ``ONLYINCOMPOUND``; compounds
and ``CIRCUMFIX`` are not, no dictionary here uses them for words).  Hunspell's own ``unmunch`` reads
flags of one byte only and so garbles the Spanish (UTF-8 flags) and Catalan (two-character flags)
dictionaries.  Then, for every list:

* entries holding a capital letter are left out: proper nouns, abbreviations and trademarks are no
  words of the game (lower-case abbreviations, ``cm``, ``kg``, stay in the hunspell lists: nothing
  marks them there);
* forms carrying a character no tile spells (the apostrophe of ``l'``/``d'``, the hyphen of Catalan
  pronouns joined to a verb, ``-lo``, ``-ne``) are never words of the game either: the affix rules
  adding one are not expanded (``--compare`` expands them, to count them);
* Spanish: verb forms with pronouns joined to them (enclitics: ``dámelo``, ``comerse``, ``comiéndolo``)
  are not played (the Spanish rules count them as two words): ``es_ES.aff`` keeps them in affix
  classes of their own, flags outside ASCII, and in the rules of class ``R`` adding ``se`` to an
  infinitive or a gerund; those are not expanded;
* every form is read for the set with the engine's own ``spell_words`` (``engine.lexicon.normalize``:
  the set's folding and cutting, 2 to 15 tiles), the forms it cannot spell counted and a few quoted.

The list is written one word per line, each word as its tiles' names (``COCHE`` is C O CH E in the
Spanish set, ``COL·LECCIO`` has the Catalan L·L), sorted in the set's tile order, UTF-8, gzipped with
mtime 0: the same packages give the same bytes.  The file is read back with ``read_list`` and must
give the same words with nothing unspellable.  Printed: counts, sizes, the sha256 of the text, of the
gzip file and of the list as the lexicon identifies it (``checksum`` of its graph keys).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.alphabet import LetterSet  # noqa: E402
from engine.lettersets import SETS  # noqa: E402
from engine.lexicon.normalize import ListLimits, checksum, read_list, spell_words  # noqa: E402

DATA = ROOT / "engine" / "lexicon" / "data"
HUNSPELL = "usr/share/hunspell"
#: Limits large enough for every form of a hunspell dictionary: the list is read back through them.
READ_BACK = ListLimits(file_bytes=64 << 20, text_bytes=64 << 20, lines=4_000_000, graph_nodes=2_000_000)


# -- hunspell ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Affix:
    """One rule of a ``PFX``/``SFX`` class: strip ``strip``, add ``add`` where ``cond`` matches."""

    flag: str
    prefix: bool
    cross: bool
    strip: str
    add: str
    cont: frozenset[str]
    cond: re.Pattern | None


def _condition(text: str, prefix: bool) -> re.Pattern | None:
    """A hunspell condition (characters, ``.``, ``[...]``, ``[^...]``) as a pattern matching the
    start (prefix) or the end (suffix) of a word; None for ``.``, which every word meets."""
    if text == ".":
        return None
    out, i = [], 0
    while i < len(text):
        if text[i] == "[":
            j = text.index("]", i + 1)
            body = text[i + 1 : j]
            negated = body.startswith("^")
            chars = "".join(re.escape(c) for c in body[negated:])
            out.append(f"[{'^' if negated else ''}{chars}]")
            i = j + 1
        else:
            out.append("." if text[i] == "." else re.escape(text[i]))
            i += 1
    pattern = "".join(out)
    return re.compile(pattern if prefix else f"(?:{pattern})$", re.S)


def _lines(text: str) -> list[str]:
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")


class Hunspell:
    """A hunspell dictionary (``.aff`` and ``.dic`` texts), expanded to its forms."""

    def __init__(self, aff: str, dic: str, skip: Callable[[Affix], bool] = lambda affix: False):
        """``skip``: the affix rules not expanded (nor any form made from what they make)."""
        self.flag_mode = "char"
        self.aliases: list[list[str]] = []
        self.classes: dict[str, list[Affix]] = {}
        self.is_prefix: dict[str, bool] = {}
        self.fullstrip = False
        self.forbidden = self.needaffix = self.onlyincompound = None
        self.skipped_rules = 0
        self._read_aff(aff, skip)
        self.dic = dic

    def flags(self, text: str) -> list[str]:
        if not text:
            return []
        if self.aliases and text.isdigit():
            return self.aliases[int(text) - 1]
        if self.flag_mode == "long":
            return [text[i : i + 2] for i in range(0, len(text), 2)]
        if self.flag_mode == "num":
            return text.split(",")
        return list(text)

    def _read_aff(self, text: str, skip: Callable[[Affix], bool]) -> None:
        crosses: dict[tuple[str, str], bool] = {}
        for line in _lines(text):
            parts = line.split()
            if not parts or parts[0].startswith("#"):
                continue
            key = parts[0]
            if key == "FLAG":
                self.flag_mode = parts[1] if parts[1] in ("long", "num") else "char"
            elif key == "AF" and not parts[1].isdigit():
                self.aliases.append(self.flags(parts[1]))
            elif key == "FULLSTRIP":
                self.fullstrip = True
            elif key == "FORBIDDENWORD":
                self.forbidden = parts[1]
            elif key == "NEEDAFFIX":
                self.needaffix = parts[1]
            elif key == "ONLYINCOMPOUND":
                self.onlyincompound = parts[1]
            elif key in ("PFX", "SFX") and len(parts) >= 4:
                flag, prefix = parts[1], key == "PFX"
                if (key, flag) not in crosses:  # the class's header: flag, cross product, count
                    crosses[key, flag] = parts[2] == "Y"
                    self.classes.setdefault(flag, [])
                    self.is_prefix[flag] = prefix
                    continue
                add, _, cont = parts[3].partition("/")
                affix = Affix(
                    flag,
                    prefix,
                    crosses[key, flag],
                    "" if parts[2] == "0" else parts[2],
                    "" if add == "0" else add,
                    frozenset(self.flags(cont)),
                    _condition(parts[4] if len(parts) > 4 else ".", prefix),
                )
                if skip(affix):
                    self.skipped_rules += 1
                else:
                    self.classes[flag].append(affix)

    def entries(self) -> Iterable[tuple[str, frozenset[str]]]:
        """The stems of the ``.dic`` and their flags (a tab starts the entry's notes)."""
        for line in _lines(self.dic)[1:]:
            entry = line.split("\t")[0].rstrip()
            if not entry:
                continue
            slash = re.search(r"(?<!\\)/", entry)
            word, flags = (entry[: slash.start()], entry[slash.end() :]) if slash else (entry, "")
            flags = flags.split()[0] if flags.strip() else ""
            yield word.replace("\\/", "/"), frozenset(self.flags(flags))

    def _apply(self, affix: Affix, word: str) -> str | None:
        strip = affix.strip
        if len(strip) > len(word) or (len(strip) == len(word) and not self.fullstrip):
            return None
        if affix.prefix:
            if not word.startswith(strip) or (affix.cond and not affix.cond.match(word)):
                return None
            return affix.add + word[len(strip) :]
        if not word.endswith(strip) or (affix.cond and not affix.cond.search(word)):
            return None
        return word[: len(word) - len(strip)] + affix.add

    def forms(self, word: str, flags: frozenset[str]) -> set[str]:
        """Every form of one stem: the stem, one or two suffixes, a prefix, a prefix with suffixes."""
        out: set[str] = set()
        banned = {self.needaffix, self.onlyincompound, self.forbidden} - {None}
        classes, is_prefix = self.classes, self.is_prefix

        def keep(form: str, affix: Affix) -> None:
            if not affix.cont & banned:
                out.add(form)

        def prefixed(form: str, allowed: set[str]) -> None:
            for flag in allowed:
                for affix in classes[flag]:
                    got = affix.cross and self._apply(affix, form)
                    if got:
                        keep(got, affix)

        if not flags & banned:
            out.add(word)
        prefixes = {f for f in flags if is_prefix.get(f)}
        for flag in flags:
            if is_prefix.get(flag) is not False:
                continue
            for suffix in classes[flag]:
                once = self._apply(suffix, word)
                if once is None:
                    continue
                keep(once, suffix)
                allowed = (prefixes | {f for f in suffix.cont if is_prefix.get(f)}) if suffix.cross else set()
                prefixed(once, allowed)
                for flag2 in suffix.cont:
                    if is_prefix.get(flag2) is not False:
                        continue
                    for second in classes[flag2]:
                        twice = self._apply(second, once)
                        if twice is not None:
                            keep(twice, second)
                            if second.cross:
                                prefixed(twice, allowed)
        for flag in prefixes:
            for prefix in classes[flag]:
                got = self._apply(prefix, word)
                if got is None:
                    continue
                keep(got, prefix)
                if not prefix.cross:
                    continue
                for flag2 in prefix.cont - flags:  # suffixes the prefix brings
                    if is_prefix.get(flag2) is False:
                        for suffix in classes[flag2]:
                            once = suffix.cross and self._apply(suffix, word)
                            both = once and self._apply(prefix, once)
                            if both:
                                out.add(both)
        return out

    def expand(self) -> tuple[set[str], int]:
        """Every form of every entry but the capitalised ones, and how many entries those are."""
        forms: set[str] = set()
        forbidden: set[str] = set()
        capitalised = 0
        for word, flags in self.entries():
            if self.forbidden in flags:
                forbidden.add(word)
                continue
            if word != word.lower():
                capitalised += 1
                continue
            forms |= self.forms(word, flags)
        return forms - forbidden, capitalised


# -- the packages --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Package:
    name: str
    version: str


@dataclass(frozen=True)
class Source:
    """A word list made from packages: hunspell dictionaries (``aff``/``dic`` paths without their
    suffix) or plain lists (``dict`` paths), for the set ``code``."""

    name: str
    code: str
    packages: tuple[Package, ...]
    hunspell: tuple[str, ...] = ()
    plain: tuple[str, ...] = ()
    #: Affix rules not expanded (beyond those adding a character no tile spells).
    skip: Callable[[Affix], bool] = field(default=lambda affix: False)


def spanish_enclitic(affix: Affix) -> bool:
    """``es_ES.aff``'s rules of verb forms with pronouns joined: its classes of flags outside ASCII,
    and in class ``R`` the infinitive or gerund with ``se`` (``comerse``, ``comiéndose``; not the
    subjunctive ``comiese``)."""
    if not affix.flag.isascii():
        return True
    return affix.flag == "R" and affix.add.endswith("se") and not affix.add.endswith("ese")


HUNSPELL_ES = Package("hunspell-es", "1:7.5.0-1")
HUNSPELL_CA = Package("hunspell-ca", "3.0.7+repack1-5")
HUNSPELL_GB = Package("hunspell-en-gb", "1:7.5.0-1")
HUNSPELL_US = Package("hunspell-en-us", "1:2020.12.07-2")
SCOWL = Package("scowl", "2020.12.07-2")
#: SCOWL's lists of words (not its abbreviations, proper names, capitalised words or contractions) in
#: every spelling and their common variants, up to size 80 (95 adds rare and doubtful words).
SCOWL_KINDS = ("english", "american", "british", "british_z", "canadian", "australian")
SCOWL_KINDS += ("variant_1", "variant_2")
SCOWL_WORDS = tuple(
    f"usr/share/dict/scowl/{kind}-words.{size}"
    for kind in SCOWL_KINDS
    for size in (10, 20, 35, 40, 50, 55, 60, 70, 80)
)

#: The lists shipped, by the set's code.
SHIPPED = {
    "es": Source("es-hunspell", "es", (HUNSPELL_ES,), hunspell=("es_ES",), skip=spanish_enclitic),
    "ca": Source("ca-hunspell", "ca", (HUNSPELL_CA,), hunspell=("ca",)),
    "en": Source("en-scowl", "en", (SCOWL,), plain=SCOWL_WORDS),
}


def _dict(name: str, version: str, path: str, code: str, label: str = "") -> Source:
    return Source(label or name, code, (Package(name, version),), plain=(f"usr/share/dict/{path}",))


#: Every candidate measured by ``--compare``.
CANDIDATES = (
    _dict("wspanish", "1.0.30", "spanish", "es"),
    Source("hunspell-es, every form", "es", (HUNSPELL_ES,), hunspell=("es_ES",)),
    SHIPPED["es"],
    _dict("wcatalan", "0.20111230b-14", "catalan", "ca"),
    SHIPPED["ca"],
    _dict("wbritish", "2020.12.07-2", "british-english", "en"),
    _dict("wbritish-huge", "2020.12.07-2", "british-english-huge", "en"),
    _dict("wbritish-insane", "2020.12.07-2", "british-english-insane", "en"),
    Source("hunspell-en-gb", "en", (HUNSPELL_GB,), hunspell=("en_GB",)),
    Source("hunspell-en-us", "en", (HUNSPELL_US,), hunspell=("en_US",)),
    Source("hunspell-en-gb + en-us", "en", (HUNSPELL_GB, HUNSPELL_US), hunspell=("en_GB", "en_US")),
    SHIPPED["en"],
)


def fetch(package: Package, work: Path) -> Path:
    """The package unpacked under ``work`` (downloaded once)."""
    target = work / package.name
    if not target.is_dir():
        debs = work / "debs"
        debs.mkdir(parents=True, exist_ok=True)
        wanted = f"{package.name}={package.version}"
        try:
            subprocess.run(
                ["apt-get", "download", wanted], cwd=debs, check=True, capture_output=True, text=True
            )
        except subprocess.CalledProcessError as error:
            sys.exit(f"apt-get download {wanted} failed (run apt-get update first?):\n{error.stderr}")
        (deb,) = debs.glob(f"{package.name}_*.deb")
        version = subprocess.run(
            ["dpkg-deb", "-f", str(deb), "Version"], check=True, capture_output=True, text=True
        ).stdout.strip()
        if version != package.version:
            sys.exit(f"{deb.name}: version {version}, expected {package.version}")
        subprocess.run(["dpkg-deb", "-x", str(deb), str(target)], check=True)
    return target


def never_spelled(letters: LetterSet) -> Callable[[Affix], bool]:
    """Whether an affix rule adds a character that no tile of ``letters`` spells (after folding)."""
    spelled = {ch for name in letters.by_name for ch in name}

    def dead(affix: Affix) -> bool:
        return any(not set(letters.fold(ch)) <= spelled for ch in affix.add if not ch.isspace())

    return dead


@dataclass
class Built:
    source: Source
    forms: int
    capitalised: int
    words: list[str]
    unspellable: int
    examples: tuple[str, ...]
    #: Forms the set cannot spell because of their letters, the others being of 1 or over 15 tiles.
    bad_letters: int
    skipped_rules: int


def build(source: Source, work: Path, every_form: bool = False) -> Built:
    """The source's words read for its set; with ``every_form``, the rules left out for a character
    no tile spells are expanded too (their forms counted as unspellable)."""
    letters = SETS[source.code]
    forms: set[str] = set()
    capitalised = skipped = 0
    for package in source.packages:
        root = fetch(package, work)
        for name in source.hunspell:
            aff, dic = (root / HUNSPELL / f"{name}.{ext}" for ext in ("aff", "dic"))
            if not aff.is_file():
                continue
            dead = never_spelled(letters)
            skip = source.skip if every_form else (lambda a, dead=dead: dead(a) or source.skip(a))
            dictionary = Hunspell(aff.read_text("utf-8"), dic.read_text("utf-8"), skip)
            found, caps = dictionary.expand()
            forms |= found
            capitalised += caps
            skipped += dictionary.skipped_rules
        for name in source.plain:
            path = root / name
            if path.is_file():
                for line in path.read_text("utf-8").splitlines():
                    if line != line.lower():
                        capitalised += 1
                    elif line.strip():
                        forms.add(line)
    reading = spell_words(sorted(forms), letters)
    bad_letters = sum(1 for form in forms if letters.cut(letters.fold(form)) is None)
    return Built(
        source,
        len(forms),
        capitalised,
        reading.words,
        reading.unspellable,
        reading.examples,
        bad_letters,
        skipped,
    )


def list_bytes(words: list[str], letters: LetterSet) -> bytes:
    """The list's text: each graph key written as its tiles' names, one a line."""
    names = letters.names
    return "".join("".join(names[ord(ch) - 64] for ch in key) + "\n" for key in words).encode("utf-8")


def write(built: Built, work: Path) -> Path:
    letters = SETS[built.source.code]
    text = list_bytes(built.words, letters)
    packed = gzip.compress(text, compresslevel=9, mtime=0)
    again = read_list(packed, letters, READ_BACK)
    if again.words != built.words or again.unspellable:
        sys.exit(f"{built.source.name}: the written list does not read back as the same words")
    path = DATA / f"{built.source.name}.txt.gz"
    path.write_bytes(packed)
    notices = [fetch(p, work) / "usr/share/doc" / p.name / "copyright" for p in built.source.packages]
    copyright = DATA / f"{built.source.name}.copyright"
    copyright.write_bytes(b"\n".join(notice.read_bytes() for notice in notices))
    print(f"  wrote {path.relative_to(ROOT)}: {len(packed):,} bytes gzipped, {len(text):,} as text")
    print(f"  sha256 of the text      {hashlib.sha256(text).hexdigest()}")
    print(f"  sha256 of the gzip file {hashlib.sha256(packed).hexdigest()}")
    print(f"  the lexicon's sha256    {checksum(built.words)}  (checksum of its graph keys)")
    print(f"  notices in {copyright.relative_to(ROOT)}")
    return path


def report(built: Built) -> None:
    s = built.source
    packages = ", ".join(f"{p.name} {p.version}" for p in s.packages)
    print(f"{s.name} [{s.code}] ({packages})")
    print(
        f"  {built.forms:,} forms ({built.capitalised:,} capitalised entries left out); "
        f"{len(built.words):,} words of 2 to 15 tiles"
    )
    print(
        f"  {built.unspellable:,} forms the set cannot spell: {built.bad_letters:,} for their letters, "
        f"{built.unspellable - built.bad_letters:,} for their length; e.g. {', '.join(built.examples)}"
    )
    if built.skipped_rules:
        print(f"  {built.skipped_rules:,} affix rules not expanded")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=sorted(SHIPPED), help="these sets' lists only")
    parser.add_argument("--compare", action="store_true", help="measure every candidate, write nothing")
    parser.add_argument(
        "--work", type=Path, help="where packages are downloaded and kept (default: temporary)"
    )
    args = parser.parse_args(argv)
    codes = args.only or sorted(SHIPPED)
    with tempfile.TemporaryDirectory() as temporary:
        work = args.work or Path(temporary)
        work.mkdir(parents=True, exist_ok=True)
        if args.compare:
            for source in CANDIDATES:
                if source.code in codes:
                    report(build(source, work, every_form=True))
            return 0
        for code in codes:
            built = build(SHIPPED[code], work)
            report(built)
            write(built, work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
