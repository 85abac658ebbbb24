"""The WordPiece tokenizer against ids the model's own tokenizer gave once.

token_ids.json was made with the `tokenizers` package over the model's
tokenizer.json (truncation at 256 tokens, no padding): 20 hand-picked texts
(accents, CJK, emoji, control and zero-width characters, a 120-letter word,
a text past 256 tokens) and 30 random runs of vocabulary words.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synapse_git.semantic.tokenizer import MAX_TOKENS, WordPiece

CASES = json.loads((Path(__file__).parent / "token_ids.json").read_text("utf-8"))
VOCAB = WordPiece.bundled()


@pytest.fixture
def wordpiece() -> WordPiece:
    return VOCAB


def test_the_bundled_vocabulary_is_the_models() -> None:
    vocab = WordPiece.bundled()
    assert len(vocab.ids) == 30522
    assert (vocab.pad, vocab.unk, vocab.cls, vocab.sep) == (0, 100, 101, 102)


@pytest.mark.parametrize("case", CASES, ids=[str(n) for n in range(len(CASES))])
def test_token_ids_equal_the_reference_tokenizers(wordpiece: WordPiece, case: dict) -> None:
    assert wordpiece.encode(case["text"]) == case["ids"]


def test_a_long_text_is_cut_to_the_models_length(wordpiece: WordPiece) -> None:
    ids = wordpiece.encode("retry backoff " * 400)
    assert len(ids) == MAX_TOKENS
    assert ids[0] == wordpiece.cls and ids[-1] == wordpiece.sep


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=400))
def test_any_text_encodes_to_known_ids_between_cls_and_sep(text: str) -> None:
    vocab = VOCAB
    ids = vocab.encode(text)
    assert ids[0] == vocab.cls and ids[-1] == vocab.sep
    assert 2 <= len(ids) <= MAX_TOKENS
    assert all(0 <= i < len(vocab.ids) for i in ids)
