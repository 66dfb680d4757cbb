"""Shared hypothesis strategies: JSON values, tools, hostile text."""

from __future__ import annotations

from hypothesis import strategies as st

INVISIBLE = [
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\ufeff",
    "\u00ad",
    "\u202e",
    "\u2066",
    "\U000e0041",
]

text = st.text(max_size=60)
hostile_text = st.text(
    alphabet=st.one_of(
        st.characters(), st.sampled_from(INVISIBLE), st.sampled_from("ignore ~/.ssh")
    ),
    max_size=80,
)

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    # JSON has no NaN or infinities (a scan refuses them, as pins do).
    st.floats(allow_nan=False, allow_infinity=False),
    hostile_text,
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(text, children, max_size=4),
    max_leaves=20,
)

tools = st.fixed_dictionaries(
    {"name": st.text(min_size=1, max_size=20)},
    optional={
        "description": hostile_text,
        "title": hostile_text,
        "inputSchema": st.dictionaries(text, json_values, max_size=4),
        "outputSchema": st.dictionaries(text, json_values, max_size=3),
        "annotations": st.dictionaries(text, json_values, max_size=3),
        "x-extra": json_values,
    },
)
