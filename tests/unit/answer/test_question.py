"""A question sorted by what it asks, in English and Japanese: its kind, window and subject."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from omoide.answer.question import classify
from omoide.core.days import local_day

TZ = "Europe/Berlin"
NOW = datetime(2026, 11, 21, 9, tzinfo=UTC)  # a Saturday


@pytest.mark.parametrize(
    ("question", "kind", "subject"),
    [
        ("what did I do yesterday", "overview", "what did I do"),
        ("昨日は何をしましたか", "overview", "は何をしましたか"),
        ("what did I do last week?", "overview", "what did I do?"),
        ("先週は何をしていた？", "overview", "は何をしていた"),
        ("how much time did I spend on github.com on Friday", "time_spent", "github.com"),
        ("how long was I in zoom on Friday", "time_spent", "zoom"),
        ("how many hours did I work on warelay last week", "time_spent", "warelay"),
        ("金曜日にgithub.comを何時間見た？", "time_spent", "github.com"),
        # the thing timed after the asking words, or before them with its particle
        ("昨日は何時間Slackを使った？", "time_spent", "Slack"),
        ("Slackを昨日何時間使った？", "time_spent", "Slack"),
        (
            "先週はlancedb.github.ioにどれくらい時間を使いましたか",
            "time_spent",
            "lancedb.github.io",
        ),
        ("昨日、VS Codeで何時間作業した？", "time_spent", "VS Code"),
        ("先週YouTubeを見た時間はどのくらい？", "time_spent", "YouTube"),
        ("when did I last talk to Peter", "when", "talk to Peter"),
        ("when was the first time I booked the ryokan", "when", "booked the ryokan"),
        ("最後にピーターと話したのはいつ？", "when", "ピーターと話した"),
        ("ミナと最後に話したのはいつ？", "when", "ミナと話した"),
        # いつ before the thing
        ("いつ走った？", "when", "走った"),
        ("最後にいつ出汁を作った？", "when", "出汁を作った"),
        ("走った日はいつですか？", "which_days", "走った"),
        (
            "11月にjapan-guide.comを見ていた時間は合計でどれくらいですか？",
            "time_spent",
            "japan-guide.com",
        ),
        # "VS Code" holds no "vs"
        (
            "Did I spend more time in VS Code or in Firefox last week?",
            "compare",
            "VS Code / Firefox",
        ),
        ("ベクトルの保存先は結局どうすることにした？", "decision", "ベクトルの保存先"),
        ("where does Mina live", "lookup", "where does Mina live"),
        # an overview needs a period to roll up; without one it is a lookup
        ("what did I do about the ryokan", "lookup", "what did I do about the ryokan"),
    ],
)
def test_a_question_is_sorted_by_what_it_asks(question: str, kind: str, subject: str) -> None:
    q = classify(question, TZ, NOW)
    assert (q.kind, q.subject) == (kind, subject.rstrip("?"))


def test_first_and_last_and_the_windows_are_local_calendar_days() -> None:
    assert classify("when was the first time I booked the ryokan", TZ, NOW).first
    assert not classify("when did I last talk to Peter", TZ, NOW).first
    assert classify("初めてピーターと話したのはいつ", TZ, NOW).first
    yesterday = classify("what did I do yesterday", TZ, NOW).window
    assert local_day(yesterday.start, TZ) == date(2026, 11, 20)
    last_week = classify("what did I do last week", TZ, NOW).window
    # the previous Monday-Sunday week before now's week
    assert local_day(last_week.start, TZ) == date(2026, 11, 9)
    assert local_day(last_week.end, TZ) == date(2026, 11, 16)


@pytest.mark.parametrize(
    ("question", "kind", "subject"),
    [
        # count: how many times / how often / 何回 / 何度, the thing done left as the subject
        ("how many times did I go running in November", "count", "go running"),
        ("How often did I cook?", "count", "cook"),
        ("how often have I been to the dentist this year", "count", "to the dentist"),
        ("how many runs did I do this month", "count", "runs"),
        ("how many days did I work on warelay last week", "count", "work on warelay"),
        ("11月に何回走りましたか", "count", "走りました"),
        ("料理は何回した？", "count", "料理した"),
        ("先週、何度ピーターと話した？", "count", "ピーターと話した"),
        ("先週どのくらいの頻度で走った？", "count", "走った"),
        # which days
        ("which days did I run", "which_days", "run"),
        ("On which days did I cook oyakodon last week?", "which_days", "cook oyakodon"),
        ("what days did I talk to Peter", "which_days", "talk to Peter"),
        ("list the days I went running", "which_days", "went running"),
        ("何日に走りましたか", "which_days", "走りました"),
        ("どの日に料理した？", "which_days", "料理した"),
        ("走ったのは何日？", "which_days", "走った"),
        # when: unchanged by the new kinds
        ("when did I last visit seriouseats.com", "when", "visit seriouseats.com"),
        ("初めて出汁を作ったのはいつですか", "when", "出汁を作った"),
        ("when did I promise Peter the map", "when", "promise Peter the map"),
        # who: a name after "who is", Xって誰, Xはどんな人
        ("who is Mina", "who", "Mina"),
        ("who's Dr. Weber?", "who", "Dr. Weber"),
        ("ミナって誰", "who", "ミナ"),
        ("ミナはどんな人ですか", "who", "ミナ"),
        # commitments: the person or topic they are to, or nothing
        ("what did I promise Peter", "commitments", "Peter"),
        ("what did I promise?", "commitments", ""),
        ("what did I promise to do?", "commitments", ""),
        ("What do I still owe Mina?", "commitments", "Mina"),
        ("what have I promised to do for Peter", "commitments", "Peter"),
        ("what did I tell Peter I would do?", "commitments", "Peter"),
        ("what did I agree to do for Mina?", "commitments", "Mina"),
        ("what are my plans for next week?", "commitments", ""),
        ("来週は何をする予定？", "commitments", ""),
        ("what do I have to do this week", "commitments", ""),
        ("what's on my to-do list", "commitments", ""),
        ("ピーターに何を約束した？", "commitments", "ピーター"),
        ("今週やることは？", "commitments", ""),
        # part of a day: an overview (or nothing else) whose window is some hours
        ("what did I do on the afternoon of 11 November", "part_of_day", "what did I do"),
        ("what was I doing last night", "part_of_day", "what was I doing"),
        ("what did I do between 14:00 and 16:00", "part_of_day", "what did I do"),
        ("11月17日の午後は何をしていた？", "part_of_day", "は何をしていた"),
        ("昨日の夜は何をした？", "part_of_day", "は何をした"),
        ("what was I doing at 10 on Friday", "part_of_day", "what was I doing"),
        # negatives: none of the new kinds
        ("who is coming to dinner", "lookup", "who is coming to dinner"),
        ("who was at the retro", "lookup", "who was at the retro"),
        ("who is my dentist", "lookup", "who is my dentist"),
        ("昨日は誰に会った？", "lookup", "は誰に会った"),
        ("what day is the dentist appointment", "lookup", "what day is the dentist appointment"),
        ("how much more time do I need", "lookup", "how much more time do I need"),
        ("what did Peter promise", "lookup", "what did Peter promise"),
        ("what did I do yesterday", "overview", "what did I do"),
        ("how many hours did I work on warelay last week", "time_spent", "warelay"),
        ("何日間かかった？", "count", "かかった"),
    ],
)
def test_new_kinds_are_sorted_by_their_asking_words(question: str, kind: str, subject: str) -> None:
    q = classify(question, TZ, NOW)
    assert (q.kind, q.subject) == (kind, subject)


@pytest.mark.parametrize(
    ("question", "speaker", "topic"),
    [
        ("what did Peter say about the ryokan", "Peter", "the ryokan"),
        ("What has Mina been saying about the migration?", "Mina", "the migration"),
        ("did Peter say anything about the flat", "Peter", "the flat"),
        ("what did Peter tell me about Kyoto last week", "Peter", "Kyoto"),
        ("what did I say about LanceDB", "I", "LanceDB"),
        ("what did Peter say yesterday", "Peter", ""),
        ("ピーターは旅館について何と言っていましたか", "ピーター", "旅館"),
        ("ミナはマイグレーションのことを何て言ってた？", "ミナ", "マイグレーション"),
        ("ミナは何て言ってた？", "ミナ", ""),
    ],
)
def test_said_by_names_the_speaker_and_the_topic(question: str, speaker: str, topic: str) -> None:
    q = classify(question, TZ, NOW)
    assert (q.kind, q.speaker, q.subject) == ("said_by", speaker, topic)


@pytest.mark.parametrize(
    ("question", "subjects", "time"),
    [
        (
            "did I spend more time on github.com or on lancedb.github.io last week",
            ("github.com", "lancedb.github.io"),
            True,
        ),
        ("was I more on github.com or in zoom yesterday", ("github.com", "zoom"), True),
        (
            "which did I spend more time on last week: github.com or zoom?",
            ("github.com", "zoom"),
            True,
        ),
        ("did I cook more than I ran last week", ("cook", "ran"), False),
        (
            "先週はgithub.comとlancedb.github.ioのどちらに長く時間を使いましたか",
            ("github.com", "lancedb.github.io"),
            True,
        ),
        ("料理とランニングのどっちが多かった？", ("料理", "ランニング"), False),
    ],
)
def test_a_comparison_names_its_two_things(
    question: str, subjects: tuple[str, ...], time: bool
) -> None:
    from omoide.answer.alternatives import measures_time

    q = classify(question, TZ, NOW)
    assert (q.kind, q.subjects, q.windows) == ("compare", subjects, ())
    assert measures_time(question, periods=False) is time


@pytest.mark.parametrize(
    ("question", "subject", "months"),
    [
        ("did I run more in October or November", "run", ((10, 1), (11, 1))),
        (
            "did I spend more time on github.com last week or this week",
            "github.com",
            ((11, 9), (11, 16)),
        ),
        ("10月と11月のどちらでたくさん走りましたか", "走りました", ((10, 1), (11, 1))),
        # the thing after the second period
        ("月曜日と火曜日、Slackを長く使ったのはどっち？", "Slack", ((11, 16), (11, 17))),
        (
            "10月と11月で、Hacker Newsを見ていた時間はどっちが長い？",
            "Hacker News",
            ((10, 1), (11, 1)),
        ),
    ],
)
def test_a_comparison_of_two_periods_has_both_windows(
    question: str, subject: str, months: tuple[tuple[int, int], ...]
) -> None:
    q = classify(question, TZ, NOW)
    assert q.kind == "compare" and q.subjects == (subject,)
    assert [(local_day(w.start, TZ).month, local_day(w.start, TZ).day) for w in q.windows] == list(
        months
    )
    assert q.window == q.windows[0]


def test_no_comparison_without_two_sides() -> None:
    for question in (
        "did I run more last week",
        "how much more time do I need",
        "github.com or zoom",
    ):
        assert classify(question, TZ, NOW).kind != "compare"


@pytest.mark.parametrize(
    ("question", "hours"),
    [
        ("what did I do on the afternoon of 11 November", ((11, 11, 12), (11, 11, 18))),
        ("what was I doing yesterday evening", ((11, 20, 18), (11, 21, 0))),
        ("what did I do on Friday in the afternoon", ((11, 20, 12), (11, 20, 18))),
        ("what did I do between 14:00 and 16:00 yesterday", ((11, 20, 14), (11, 20, 16))),
        ("what did I do from 2pm to 4pm on Friday", ((11, 20, 14), (11, 20, 16))),
        # no day named: the latest such hours begun (now is 10:00 local: yesterday's 14:00)
        ("what did I do between 14:00 and 16:00", ((11, 20, 14), (11, 20, 16))),
        ("what did I do in the morning", ((11, 21, 0), (11, 21, 12))),
        ("11月17日の午後は何をしていた？", ((11, 17, 12), (11, 17, 18))),
        ("昨日の夜は何をした？", ((11, 20, 18), (11, 21, 6))),
        ("14時から16時まで何をしていた？", ((11, 20, 14), (11, 20, 16))),
        # a point of the day: the hour from it
        ("what was I doing at 10 on Friday", ((11, 20, 10), (11, 20, 11))),
        ("what was I doing at 3pm yesterday?", ((11, 20, 15), (11, 20, 16))),
        ("what was I doing around 9:30", ((11, 21, 9), (11, 21, 10))),
        ("昨日の15時ごろ何をしていた？", ((11, 20, 15), (11, 20, 16))),
        # time_words' own parts stay as they are
        ("what did I do this morning", ((11, 21, 0), (11, 21, 12))),
    ],
)
def test_a_part_of_a_day_narrows_the_window_to_its_local_hours(
    question: str, hours: tuple[tuple[int, int, int], ...]
) -> None:
    from omoide.core.days import zone

    q = classify(question, TZ, NOW)
    assert q.kind == "part_of_day"
    got = [
        (t.month, t.day, t.hour)
        for t in (x.astimezone(zone(TZ)) for x in (q.window.start, q.window.end))
    ]
    assert got == list(hours)


def test_a_part_of_day_word_that_names_no_hours_leaves_the_day_whole() -> None:
    # breakfast, kilometres and a week's mornings are no stretch of one day
    for question in ("昨日の朝ごはんは何を食べた？", "did I run between 3 and 5 km yesterday"):
        q = classify(question, TZ, NOW)
        assert q.window is not None and q.window.end - q.window.start >= timedelta(hours=23)
    assert classify("what did I do in the mornings last week", TZ, NOW).kind == "overview"
    # the hours narrow every kind: time on github.com this afternoon
    spent = classify("how long was I on github.com on Friday afternoon", TZ, NOW)
    assert spent.kind == "time_spent" and spent.subject == "github.com"
    assert spent.window.end - spent.window.start == timedelta(hours=6)


def test_the_answer_language_is_the_questions_unless_set() -> None:
    assert classify("what did I do yesterday", TZ, NOW).lang == "en"
    assert classify("github.comに何時間使った？", TZ, NOW).lang == "ja"
    assert classify("what did I do yesterday", TZ, NOW, "ja").lang == "ja"
    assert classify("昨日は何をしましたか", TZ, NOW, "en").lang == "en"


def test_being_on_or_using_a_thing_compares_its_time_in_two_periods() -> None:
    from omoide.answer.alternatives import measures_time

    assert measures_time("was I on Slack more on Monday or on Tuesday?", periods=True)
    assert measures_time("did I use zoom more on Monday or on Tuesday?", periods=True)
    assert measures_time("月曜日と火曜日、Slackを長く使ったのはどっち？", periods=True)
    assert not measures_time("did I run more in October or November", periods=True)


def test_a_number_after_at_is_no_time_of_day() -> None:
    for question in ("how often did I run at 10 km pace", "did I finish at 5 kilometres"):
        assert classify(question, TZ, NOW).kind != "part_of_day"
