"""Portable archives of a home (`omoide export` / `omoide import`) and the chat-JSONL fine-tuning export."""
