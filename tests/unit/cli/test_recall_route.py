"""`omoide recall` and `omoide ask` answered through the home's recall endpoint: the same output,
no LanceDB or model loaded by the command, and the command's own answer whenever the endpoint
is absent, stale, refuses the token or serves another configuration."""

from __future__ import annotations

import http.client
import json
import stat
from collections.abc import Iterator
from pathlib import Path

import lancedb
import pytest

from omoide.bench.cli_latency import loaded_modules
from omoide.cli.recall_endpoint import RecallEndpoint, answer, recall_endpoint
from omoide.cli.recall_route import PATH, answered, endpoint_file, running_endpoint
from omoide.core.files import write_text_atomic
from tests.fakes import run_cli as omoide

NOW = "2026-11-21T09:00"
QUESTION = "which database did we pick for warelay"
RECALL = ("recall", QUESTION, "--now", NOW, "--no-rehearse")
HEAVY = {"lancedb", "onnxruntime", "pandas"}


@pytest.fixture
def endpoint(home_with_memories: Path) -> Iterator[RecallEndpoint]:
    """The recall endpoint of the home with memories, answering (in this process, on a thread)."""
    with recall_endpoint(home_with_memories) as running:
        assert running.ready.wait(180), "the endpoint did not warm up"
        yield running


def _outputs(home: Path, **env: str) -> list[tuple[int, str, str]]:
    """Home -> exit code, stdout and stderr of recall (JSON and text), recall --around and ask (JSON and text)."""
    runs = [
        omoide(*RECALL, "--json", home=home, **env),
        omoide(*RECALL, home=home, **env),
        omoide("recall", "--around", "m2", "--now", NOW, "--json", home=home, **env),
        omoide("ask", QUESTION, "--now", NOW, "--json", home=home, **env),
        omoide("ask", QUESTION, "--now", NOW, home=home, **env),
    ]
    return [(r.returncode, r.stdout, r.stderr) for r in runs]


def test_served_answers_print_exactly_what_the_command_prints_and_load_no_lancedb(
    home_with_memories: Path,
) -> None:
    own = _outputs(home_with_memories)
    assert all(code == 0 for code, _, _ in own), own
    assert json.loads(own[0][1])[0]["memory_id"] == "m1"
    assert HEAVY <= set(loaded_modules(home_with_memories, *RECALL, "--json"))
    with recall_endpoint(home_with_memories) as running:
        assert running.ready.wait(180)
        served = _outputs(home_with_memories)
        loaded = set(loaded_modules(home_with_memories, *RECALL, "--json"))
        asked = set(loaded_modules(home_with_memories, "ask", QUESTION, "--now", NOW))
    assert served == own
    assert not loaded & HEAVY and not asked & HEAVY, (loaded, asked)


def test_a_served_recall_is_counted_as_a_rehearsal_once(
    home_with_memories: Path, endpoint: RecallEndpoint
) -> None:
    r = omoide("recall", "sourdough", "--k", "1", "--json", home=home_with_memories)
    assert r.returncode == 0, r.stderr
    assert [m["memory_id"] for m in json.loads(r.stdout)] == ["m3"]
    table = lancedb.connect(home_with_memories / "lancedb").open_table("memories")
    assert table.to_pandas().set_index("memory_id").loc["m3", "recall_count"] == 1


def test_an_error_met_by_the_endpoint_is_the_commands_own_line(omoide_home: Path) -> None:
    own = omoide("recall", "anything", home=omoide_home)
    with recall_endpoint(omoide_home) as running:
        assert running.ready.wait(180)
        served = omoide("recall", "anything", home=omoide_home)
        loaded = set(loaded_modules(omoide_home, "recall", "anything"))
    assert own.returncode == served.returncode == 1
    assert "omoide backfill" in served.stderr and served.stderr == own.stderr
    assert not loaded & HEAVY


def test_a_stale_file_is_ignored_and_the_command_answers_itself(
    home_with_memories: Path, refused_host: str
) -> None:
    port = int(refused_host.rsplit(":", 1)[1])
    record = {"port": port, "token": "left-by-a-killed-server", "home": str(home_with_memories)}
    write_text_atomic(json.dumps(record), endpoint_file(home_with_memories))
    assert running_endpoint(home_with_memories) is None
    stale = omoide(*RECALL, "--json", home=home_with_memories)
    assert stale.returncode == 0 and json.loads(stale.stdout)[0]["memory_id"] == "m1"
    assert "lancedb" in loaded_modules(home_with_memories, *RECALL, "--json")


@pytest.mark.parametrize("text", ["", "{", "[]", '{"port": "x"}', '{"port": 1}'])
def test_a_damaged_file_is_no_endpoint(omoide_home: Path, text: str) -> None:
    file = endpoint_file(omoide_home)
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text)
    assert running_endpoint(omoide_home) is None
    assert answered("recall", {"query": "x"}) is None


def test_a_wrong_token_is_refused_and_the_command_answers_itself(
    home_with_memories: Path, endpoint: RecallEndpoint
) -> None:
    record = {"port": endpoint.port, "token": "guessed", "home": str(home_with_memories)}
    write_text_atomic(json.dumps(record), endpoint_file(home_with_memories))
    refused = omoide(*RECALL, "--json", home=home_with_memories)
    assert refused.returncode == 0 and json.loads(refused.stdout)[0]["memory_id"] == "m1"
    assert "lancedb" in loaded_modules(home_with_memories, *RECALL, "--json")


def test_other_omoide_variables_are_answered_by_the_command_itself(
    home_with_memories: Path, endpoint: RecallEndpoint
) -> None:
    # The endpoint's settings are its own environment's: a command with other variables would
    # get another answer from it, so it answers itself (here with k = 1 from the environment).
    r = omoide(*RECALL, "--json", home=home_with_memories, OMOIDE_RECALL__K="1")
    assert r.returncode == 0, r.stderr
    assert [m["memory_id"] for m in json.loads(r.stdout)] == ["m1"]
    loaded = loaded_modules(home_with_memories, *RECALL, "--json")
    assert "lancedb" not in loaded  # without the variable it is served


def _post(port: int, body: bytes, headers: dict[str, str], path: str = PATH) -> int:
    """Port + body + headers (+ path) -> the endpoint's HTTP status."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def test_the_endpoint_listens_on_loopback_behind_a_private_file_and_its_token(
    home_with_memories: Path,
) -> None:
    with recall_endpoint(home_with_memories) as running:
        assert running.ready.wait(180)
        file = endpoint_file(home_with_memories)
        assert stat.S_IMODE(file.stat().st_mode) == 0o600
        record = json.loads(file.read_text())
        assert set(record) == {"port", "token", "home"} and record["port"] == running.port
        assert running._httpd.server_address[0] == "127.0.0.1"
        assert running_endpoint(home_with_memories) == running.port
        request = json.dumps({"command": "recall", "params": {"query": "x"}}).encode()
        auth = {"Authorization": f"Bearer {record['token']}"}
        assert _post(running.port, request, {}) == 403
        assert _post(running.port, request, {"Authorization": "Bearer guessed"}) == 403
        assert _post(running.port, request, auth, path="/") == 404
        # A page whose name is rebound to 127.0.0.1, or a page's script: refused, token or not.
        assert _post(running.port, request, {**auth, "Host": f"evil.example:{running.port}"}) == 403
        assert _post(running.port, request, {**auth, "Origin": "https://evil.example"}) == 403
        assert _post(running.port, b"[1]", auth) == 400
        assert _post(running.port, request, auth) == 409  # no home, no variables: refused
    assert not file.exists()
    assert running_endpoint(home_with_memories) is None


def test_a_stopped_endpoint_leaves_a_file_another_one_wrote(omoide_home: Path) -> None:
    first = RecallEndpoint(omoide_home).start()
    assert first.ready.wait(180)
    second = {"port": 1, "token": "the next endpoint's", "home": str(omoide_home)}
    write_text_atomic(json.dumps(second), endpoint_file(omoide_home))
    first.stop()
    assert json.loads(endpoint_file(omoide_home).read_text()) == second


def test_an_unknown_command_or_parameter_is_refused(omoide_home: Path) -> None:
    from omoide.cli.recall_route import configuration

    home = omoide_home.resolve()
    base = {"home": str(home), "env": configuration()}
    assert answer({**base, "command": "forget", "params": {}}, home)[0] == 400
    assert answer({**base, "command": "recall", "params": []}, home)[0] == 400
    assert answer({**base, "command": "recall", "params": {"yes": True}}, home)[0] == 500
    worded = {"question": "what did I do", "llm": "a model"}  # --llm is never served
    assert answer({**base, "command": "ask", "params": worded}, home)[0] == 500
    assert answer({**base, "home": "/elsewhere", "command": "recall", "params": {}}, home)[0] == 409
