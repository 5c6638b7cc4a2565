"""A ServiceSpec -> the Task Scheduler task (Windows) that starts omoide at the user's logon."""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET

from omoide.service.spec import ServiceSpec

NAMESPACE = "http://schemas.microsoft.com/windows/2004/02/mit/task"


def scheduler_task(spec: ServiceSpec) -> str:
    """Spec -> Task Scheduler XML (schema 1.2): a logon trigger, no time limit, restarted on failure."""
    ET.register_namespace("", NAMESPACE)
    task = ET.Element(_tag("Task"), version="1.2")
    info = _child(task, "RegistrationInfo")
    _child(info, "Author", spec.user or "omoide")
    _child(
        info,
        "Description",
        f"omoide: the Prefect server and the daily schedule for OMOIDE_HOME={spec.home}",
    )
    logon = _child(_child(task, "Triggers"), "LogonTrigger")
    _child(logon, "Enabled", "true")
    if spec.user:
        _child(logon, "UserId", spec.user)
    principal = _child(_child(task, "Principals"), "Principal", id="Author")
    if spec.user:
        _child(principal, "UserId", spec.user)
    # Only while the user is logged on, with their own rights: no stored password, no elevation.
    _child(principal, "LogonType", "InteractiveToken")
    _child(principal, "RunLevel", "LeastPrivilege")
    _settings(_child(task, "Settings"))
    run = _child(_child(task, "Actions", Context="Author"), "Exec")
    _child(run, "Command", spec.omoide)
    # A task carries no environment: `service run --home` sets OMOIDE_HOME and the offline
    # switches in its own process, and everything it starts inherits them.
    _child(run, "Arguments", subprocess.list2cmdline(spec.arguments()[1:]))
    _child(run, "WorkingDirectory", spec.home)
    ET.indent(task)
    return '<?xml version="1.0"?>\n' + ET.tostring(task, encoding="unicode") + "\n"


def _settings(settings: ET.Element) -> None:
    """Settings element -> filled in the order Task Scheduler itself exports them."""
    for name, value in (
        ("MultipleInstancesPolicy", "IgnoreNew"),
        # A laptop runs on battery: the defaults (true) would never start it there, or stop it.
        ("DisallowStartIfOnBatteries", "false"),
        ("StopIfGoingOnBatteries", "false"),
        ("AllowHardTerminate", "true"),
        ("StartWhenAvailable", "true"),
        ("RunOnlyIfNetworkAvailable", "false"),
    ):
        _child(settings, name, value)
    idle = _child(settings, "IdleSettings")
    _child(idle, "StopOnIdleEnd", "false")
    _child(idle, "RestartOnIdle", "false")
    for name, value in (
        ("AllowStartOnDemand", "true"),
        ("Enabled", "true"),
        ("Hidden", "false"),
        ("RunOnlyIfIdle", "false"),
        ("WakeToRun", "false"),
        ("ExecutionTimeLimit", "PT0S"),  # no limit: it runs until logoff
        ("Priority", "7"),
    ):
        _child(settings, name, value)
    restart = _child(settings, "RestartOnFailure")
    _child(restart, "Interval", "PT1M")  # Task Scheduler's shortest
    _child(restart, "Count", "999")


def _tag(name: str) -> str:
    """Element name -> its qualified name in the task namespace."""
    return f"{{{NAMESPACE}}}{name}"


def _child(parent: ET.Element, name: str, text: str | None = None, **attributes: str) -> ET.Element:
    """Parent + name (+ text, attributes) -> a new child element in the task namespace."""
    element = ET.SubElement(parent, _tag(name), attributes)
    element.text = text
    return element
