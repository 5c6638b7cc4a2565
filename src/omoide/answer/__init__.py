"""Answers, not hits: a question sorted by what it asks, answered from the store that holds the answer, cited."""
