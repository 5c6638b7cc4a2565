"""A digest page's own summary sentence (omoide's template, not the person's words) -> said in Japanese from its figures.

The figures are read back by the template's own modules (`omoide.memory.extractive_digest.day_figures`,
`omoide.reflect.periods.period_figures`), so this never translates text: a summary a model
wrote, which no template pattern reads, stays as written. Names (apps, sites, people) stay as
the records write them.
"""

from __future__ import annotations

from omoide.answer.language import day_text
from omoide.memory.extractive_digest import DayFigures, day_figures
from omoide.reflect.periods import PeriodFigures, period_figures

_MEASURED = {
    "not AFK": "（ActivityWatch、離席を除く）",
    "window": "（ActivityWatchのウィンドウ時間、離席データなし）",
}


def hours_ja(seconds: float) -> str:
    """Seconds -> '1.5時間' or '25分', to the page's own precision."""
    return f"{seconds / 3600:.1f}時間" if seconds >= 3600 else f"{max(1, round(seconds / 60))}分"


def _spent_ja(spent: tuple[tuple[str, float], ...]) -> str:
    """Time per activity -> '最も長かったのは zoom（1.9時間）、Code（1.7時間）。'."""
    return "最も長かったのは " + "、".join(f"{n}（{hours_ja(s)}）" for n, s in spent) + "。"


def day_ja(f: DayFigures) -> str:
    """A day summary's figures -> its sentences in Japanese."""
    out = [f"{day_text(f.day, 'ja')}："]
    if f.active is not None:
        how = _MEASURED.get(f.measured, "")
        out.append(f"パソコンの前に{hours_ja(f.active)}{how}。")
    if f.span:
        out.append(f"{f.span[0]}〜{f.span[1]}に{f.sessions}件の活動。")
    if f.active is None and f.span:
        out.append(
            "ActivityWatchのデータがなく、使った時間は分かりません（閲覧履歴に時間はありません）。"
        )
    if f.longest:
        # A block's label is the person's own words (or the apps'), quoted as written.
        longest = "、".join(f"「{label}」（{hours_ja(s)}）" for label, s in f.longest)
        out.append(f"長かった活動：{longest}。")
    if f.people:
        out.append("一緒だった人：" + "、".join(f.people) + "。")
    if f.spent:
        out.append(_spent_ja(f.spent))
    if f.mentioned:
        out.append("話題に出たのは " + "、".join(f.mentioned) + "。")
    if f.written:
        out.append(f"メモ{f.written[0]}段落、チャット{f.written[1]}件を書きました。")
    return "".join(out)


def period_ja(f: PeriodFigures) -> str:
    """A week or month summary's figures -> its sentences in Japanese."""
    out = [f"ページのある日は{f.days}日。"]
    if f.active is not None:
        out.append(f"パソコンの前に約{hours_ja(f.active)}（離席を除く）。")
    if f.spent:
        out.append(_spent_ja(f.spent))
    if f.people:
        out.append("人：" + "、".join(f"{n}（{k}）" for n, k in f.people) + "。")
    if f.other:
        out.append("プロジェクトと場所：" + "、".join(f"{n}（{k}）" for n, k in f.other) + "。")
    notes, chats, facts = f.written
    out.append(f"メモ{notes}段落、チャット{chats}件、残した事実{facts}件を書きました。")
    return "".join(out)


def summary_ja(summary: str) -> str | None:
    """A page's summary as written -> it said in Japanese from its figures, or None when no template wrote it."""
    day = day_figures(summary)
    if day is not None:
        return day_ja(day)
    period = period_figures(summary)
    return period_ja(period) if period is not None else None
