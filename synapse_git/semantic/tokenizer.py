"""BERT's uncased WordPiece tokenizer over the model's vocab.txt (docs/semantic.md).

Written here so the extra needs neither `tokenizers` nor a hub client: it
follows BertNormalizer (clean text, space out CJK ideographs, strip accents,
lower-case), BertPreTokenizer (split on white space and punctuation) and
greedy longest-match WordPiece, as the model was trained with. Plain Python:
the commit hook and `synapse --help` never import this module.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from pathlib import Path

CLS, SEP, PAD, UNK = "[CLS]", "[SEP]", "[PAD]", "[UNK]"
MAX_WORD_CHARS = 100
# The model was trained on at most 256 tokens; a longer body is embedded by its opening.
MAX_TOKENS = 256


def _is_control(char: str) -> bool:
    if char in "\t\n\r":
        return False
    return unicodedata.category(char) in ("Cc", "Cf")


# The printable ASCII that is neither a letter, a digit nor a space (`!`-`/`, `:`-`@`,
# `[`-`` ` ``, `{`-`~`): symbols such as $ + < = > ^ ` | ~ are not Unicode punctuation,
# and BERT splits them too.
ASCII_SYMBOLS = ((0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E))
# The CJK ideograph blocks BERT spaces out (the unified ideographs, extensions A to E
# and the compatibility ideographs); Hangul and kana are not among them.
CJK_BLOCKS = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B820, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)
NUL, REPLACEMENT = 0, 0xFFFD  # what BERT drops as invalid


def _is_punctuation(char: str) -> bool:
    code = ord(char)
    if any(low <= code <= high for low, high in ASCII_SYMBOLS):
        return True
    return unicodedata.category(char).startswith("P")


def _is_cjk(code: int) -> bool:
    return any(low <= code <= high for low, high in CJK_BLOCKS)


def normalize(text: str) -> str:
    """BertNormalizer: drop invalid and control characters, white space to a space,
    space out CJK ideographs, lower-case and strip accents."""
    out: list[str] = []
    for char in text:
        code = ord(char)
        if code in (NUL, REPLACEMENT) or _is_control(char):
            continue
        if char.isspace():
            out.append(" ")
        elif _is_cjk(code):
            out.append(f" {char} ")
        else:
            out.append(char)
    folded = unicodedata.normalize("NFD", "".join(out).lower())
    return "".join(char for char in folded if unicodedata.category(char) != "Mn")


def pre_tokenize(text: str) -> list[str]:
    """Words split on white space, each punctuation character a word of its own."""
    words: list[str] = []
    for chunk in text.split():
        current = ""
        for char in chunk:
            if _is_punctuation(char):
                if current:
                    words.append(current)
                    current = ""
                words.append(char)
            else:
                current += char
        if current:
            words.append(current)
    return words


class WordPiece:
    """Token ids for text, as the model's own tokenizer gives them."""

    def __init__(self, vocab: Sequence[str]) -> None:
        self.ids = {token: number for number, token in enumerate(vocab)}
        self.cls, self.sep, self.pad, self.unk = (self.ids[t] for t in (CLS, SEP, PAD, UNK))

    @classmethod
    def bundled(cls) -> WordPiece:
        """The vocabulary shipped with Synapse (all-MiniLM-L6-v2's, Apache-2.0)."""
        text = (Path(__file__).parent / "vocab.txt").read_text("utf-8")
        return cls(text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"))

    def word_ids(self, word: str) -> list[int]:
        """Greedy longest-match-first pieces of one word; [UNK] when any part is unknown."""
        if len(word) > MAX_WORD_CHARS:
            return [self.unk]
        pieces: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            found = None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = self.ids.get(piece)
                if found is not None:
                    break
                end -= 1
            if found is None:
                return [self.unk]
            pieces.append(found)
            start = end
        return pieces

    def encode(self, text: str, max_tokens: int = MAX_TOKENS) -> list[int]:
        """[CLS] the text's pieces [SEP], cut to `max_tokens` in all."""
        ids = [self.cls]
        room = max_tokens - 1
        for word in pre_tokenize(normalize(text)):
            ids += self.word_ids(word)
            if len(ids) >= room:
                ids = ids[:room]
                break
        ids.append(self.sep)
        return ids
