"""Venue identity for auditor/v2: is the claimed journal/proceedings the register's venue?

Tolerant of how a venue is written, strict on which venue it is:

- known venues have one identity under all their names (`NeurIPS` = `NIPS` = `Advances in Neural
  Information Processing Systems`; `CVPR` = `IEEE/CVF Conference on Computer Vision and Pattern
  Recognition`), found as an acronym token or a full name inside the string, so
  `2023 IEEE/CVF Conference on … (CVPR)` and `Proc. CVPR` are CVPR; two different known
  identities differ (ICML is not NeurIPS);
- otherwise the words are compared after dropping years, ordinals and filler (`Proceedings of
  the`, `Proc. of`, `International`, `Annual`), and an abbreviated word matches a full word it
  abbreviates (ISO 4: `J. Mach. Learn. Res.` = `Journal of Machine Learning Research`,
  `Proc. Natl. Acad. Sci.` = `Proceedings of the National Academy of Sciences`): the letters of
  the short word appear in order in the long one, starting with its first letter;
- a venue that cannot be read on either side (empty, only filler) is not compared.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from auditor.markup import strip_markup

__all__ = ["JOURNAL_IDS", "is_preprint_venue", "venue_agrees", "venue_ids"]

# Known venues: identity → names (acronyms are matched as whole tokens, names as word runs).
_VENUES: dict[str, tuple[str, ...]] = {
    "neurips": (
        "neurips", "nips", "advances in neural information processing systems",
        "neural information processing systems", "conference on neural information processing",
    ),
    "icml": ("icml", "international conference on machine learning"),
    "iclr": ("iclr", "international conference on learning representations"),
    "cvpr": ("cvpr", "computer vision and pattern recognition"),
    "iccv": ("iccv", "international conference on computer vision"),
    "eccv": ("eccv", "european conference on computer vision"),
    "wacv": ("wacv", "winter conference on applications of computer vision"),
    "aaai": ("aaai", "aaai conference on artificial intelligence"),
    "ijcai": ("ijcai", "international joint conference on artificial intelligence"),
    "acl": ("acl", "annual meeting of the association for computational linguistics"),
    "emnlp": ("emnlp", "empirical methods in natural language processing"),
    "naacl": ("naacl", "north american chapter of the association for computational linguistics"),
    "eacl": ("eacl", "european chapter of the association for computational linguistics"),
    "coling": ("coling", "international conference on computational linguistics"),
    "kdd": ("kdd", "sigkdd", "knowledge discovery and data mining"),
    "www": ("www", "the web conference", "world wide web conference", "world wide web"),
    "sigir": ("sigir", "research and development in information retrieval"),
    "uai": ("uai", "uncertainty in artificial intelligence"),
    "aistats": ("aistats", "artificial intelligence and statistics"),
    "colt": ("colt", "conference on learning theory", "computational learning theory"),
    "icra": ("icra", "international conference on robotics and automation"),
    "iros": ("iros", "intelligent robots and systems"),
    "corl": ("corl", "conference on robot learning"),
    "miccai": ("miccai", "medical image computing and computer assisted intervention"),
    "interspeech": ("interspeech",),
    "icassp": ("icassp", "acoustics speech and signal processing"),
    "wsdm": ("wsdm", "web search and data mining"),
    "cikm": ("cikm", "information and knowledge management"),
    "icde": ("icde", "international conference on data engineering"),
    "sigmod": ("sigmod", "management of data"),
    "vldb": ("vldb", "pvldb", "very large data bases"),
    "chi": ("chi", "human factors in computing systems"),
    "stoc": ("stoc", "symposium on theory of computing"),
    "focs": ("focs", "foundations of computer science"),
    "soda": ("soda", "symposium on discrete algorithms"),
    "jmlr": ("jmlr", "journal of machine learning research"),
    "tmlr": ("tmlr", "transactions on machine learning research"),
    "tpami": (
        "tpami", "pami", "transactions on pattern analysis and machine intelligence",
    ),
    "ijcv": ("ijcv", "international journal of computer vision"),
    "tacl": ("tacl", "transactions of the association for computational linguistics"),
    "mlj": ("machine learning",),
    "ai": ("artificial intelligence",),
    "jair": ("jair", "journal of artificial intelligence research"),
    "pnas": ("pnas", "proceedings of the national academy of sciences"),
    "nature": ("nature",),
    "science": ("science",),
}  # fmt: skip
#: Known identities that are journals (the rest are conferences): a conference paper's arXiv id
#: often carries on to its extended journal version, so an arXiv `journal_ref` of one kind says
#: nothing against a citation of the other.
JOURNAL_IDS = frozenset(
    {"jmlr", "tmlr", "tpami", "ijcv", "tacl", "mlj", "ai", "jair", "pnas", "nature", "science"}
)
# A name that is also a word inside other venues' names: identity only when it is the whole
# venue (`Machine Learning` the journal, not `… Conference on Machine Learning`).
_WHOLE_ONLY = frozenset({"mlj", "ai", "nature", "science", "www"})

_PREPRINT = frozenset({"arxiv", "corr", "biorxiv", "medrxiv", "preprint", "ssrn", "chemrxiv"})
_FILLER = frozenset(
    {
        "proceedings", "proc", "of", "the", "in", "on", "and", "for", "annual", "international",
        "int", "intl", "conference", "conf", "symposium", "symp", "meeting", "workshop", "ieee",
        "cvf",
        "acm", "ieeecvf", "usenix", "siam", "springer", "lecture", "notes", "volume", "vol", "part",
        "edition", "ed", "th", "st", "nd", "rd", "a", "an", "usa",
    }
)  # fmt: skip
_NOT_WORD = re.compile(r"[^\w\s]+|_+")
_ORDINAL = re.compile(r"^\d+(st|nd|rd|th)?$|^(first|second|third|fourth|fifth|sixth)$")


def _words(venue: str) -> tuple[str, ...]:
    text = unicodedata.normalize("NFKD", strip_markup(venue) or "").lower()
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.replace("&", " and ").replace("/", " ").replace("-", " ")
    return tuple(_NOT_WORD.sub(" ", text).split())


def _content(words: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(w for w in words if w not in _FILLER and not _ORDINAL.match(w))


@lru_cache(maxsize=16384)
def venue_ids(venue: str | None) -> frozenset[str]:
    """The known venue identities a venue string names (empty when none is recognized)."""
    if not venue:
        return frozenset()
    words = _words(venue)
    joined = f" {' '.join(words)} "
    bare = " ".join(w for w in words if w != "the")
    found: set[str] = set()
    for ident, names in _VENUES.items():
        for name in names:
            if ident in _WHOLE_ONLY:
                if bare == name:
                    found.add(ident)
            elif f" {name} " in joined:
                found.add(ident)
    # A workshop, findings or companion volume is not the main venue; keep the identity but
    # mark it, so `NeurIPS Workshop` is neither NeurIPS nor different from it by name alone.
    return frozenset(found)


@lru_cache(maxsize=16384)
def is_preprint_venue(venue: str | None) -> bool:
    """Whether a venue string names a preprint server (arXiv, CoRR, bioRxiv, medRxiv, SSRN)."""
    return bool(venue) and any(w in _PREPRINT for w in _words(venue or ""))


def _abbreviates(short: str, long: str) -> bool:
    """ISO 4 style: `short` is `long`, or its letters appear in order in `long` from the first."""
    if short == long:
        return True
    if len(short) > len(long) or not short or short[0] != long[0]:
        return False
    it = iter(long)
    return all(c in it for c in short)


def _word_runs_agree(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Every word of the shorter list abbreviates a word of the longer, in order."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    j = 0
    for word in short:
        while j < len(long) and not _abbreviates(word, long[j]):
            j += 1
        if j == len(long):
            return False
        j += 1
    return True


@lru_cache(maxsize=65536)
def venue_agrees(claimed: str | None, register: str | None) -> bool | None:
    """Whether the claimed venue is the register's; `None` when they cannot be compared."""
    if not claimed or not register:
        return None
    ids_c, ids_r = venue_ids(claimed), venue_ids(register)
    if ids_c and ids_r:
        return bool(ids_c & ids_r)
    wc, wr = _content(_words(claimed)), _content(_words(register))
    if not wc or not wr:
        return None
    if _word_runs_agree(wc, wr) or _acronym_of(wc, _words(register)):
        return True
    if _acronym_of(wr, _words(claimed)):
        return True
    if ids_r:
        # The register names a known venue and the citation an unknown one: the citation must
        # spell that venue (every word of it abbreviates a word of one of its names, in order).
        # `International Conference on Quantum Machine Learning` is not ICML.
        return any(_spells(wc, _content(tuple(n.split()))) for n in _VENUES[min(ids_r)])
    if ids_c:
        # The citation names a known venue and the register gives a string the table does not
        # know (a series title, `Lecture Notes in …`, a long proceedings name): a shared word is
        # enough, since registers write venues in many more ways than citations do.
        names = {w for n in _VENUES[min(ids_c)] for w in _content(tuple(n.split()))}
        return _share_word(wr, tuple(names))
    return _share_word(wc, wr)


def _spells(words: tuple[str, ...], name: tuple[str, ...]) -> bool:
    """Every word of `words` abbreviates a word of `name`, in order (`Int. Conf. Mach. Learn.`);
    an empty spelling spells nothing."""
    if not any(len(w) > 1 for w in words):
        return False
    j = 0
    # Single letters (`U.S.A.`, a section letter) carry no identity of a named venue.
    for word in (w for w in words if len(w) > 1):
        while j < len(name) and not _abbreviates(word, name[j]):
            j += 1
        if j == len(name):
            return False
        j += 1
    return True


def _acronym_of(short: tuple[str, ...], words: tuple[str, ...]) -> bool:
    """`PRL` for `Physical Review Letters`, `JAMA` for `Journal of the American Medical …`."""
    if len(short) != 1 or not 2 <= len(short[0]) <= 8:
        return False
    content = _content(words)
    initials = {"".join(w[0] for w in ws) for ws in (words, content) if ws}
    return short[0] in initials


def _share_word(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Some word of one side is, or abbreviates (3 letters at least), a word of the other."""
    for x in a:
        for y in b:
            if (
                x == y
                or (len(x) >= 3 and _abbreviates(x, y))
                or (len(y) >= 3 and _abbreviates(y, x))
            ):
                return True
    return False
