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


def _is_punctuation(char: str) -> bool:
    code = ord(char)
    # ASCII symbols such as $ + < = > ^ ` | ~ are not Unicode punctuation; BERT splits them too.
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def _is_cjk(code: int) -> bool:
    return (
        0x4E00 <= code <= 0x9FFF
        or 0x3400 <= code <= 0x4DBF
        or 0x20000 <= code <= 0x2A6DF
        or 0x2A700 <= code <= 0x2B73F
        or 0x2B740 <= code <= 0x2B81F
        or 0x2B820 <= code <= 0x2CEAF
        or 0xF900 <= code <= 0xFAFF
        or 0x2F800 <= code <= 0x2FA1F
    )


def normalize(text: str) -> str:
    """BertNormalizer: drop invalid and control characters, white space to a space,
    space out CJK ideographs, lower-case and strip accents."""
    out: list[str] = []
    for char in text:
        code = ord(char)
        if code == 0 or code == 0xFFFD or _is_control(char):
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
