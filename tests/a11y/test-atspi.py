#!/usr/bin/python3
# test-atspi.py: the application as a screen reader sees it, through the
# AT-SPI accessibility bus: every control on screen has a name and a role,
# and the open, navigate, select and find path works from the keyboard
# alone, the focus and the details pane saying what was reached.
#
# Usage: test-atspi.py APP CLI
#   APP  the chronoscope binary; CLI  chronoscope-cli, which writes the trace
#
# It runs itself again inside a private D-Bus session (dbus-run-session),
# on which the accessibility bus starts as it does in a desktop session,
# and drives the keys with xdotool on the X display it is given (run it
# under xvfb-run). Exit status 77 is a skip: when the bus, Python's
# AT-SPI bindings or xdotool are missing, unless CHRONO_ATSPI_REQUIRE is
# set (CI), when they make it fail.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77
PRIVATE_BUS = "CHRONO_ATSPI_PRIVATE_BUS"

# Roles a person acts on: each needs a name to be told apart.
INTERACTIVE = {
    "push button", "toggle button", "check box", "radio button", "combo box",
    "spin button", "entry", "text", "password text", "slider", "page tab",
    "menu item", "check menu item", "radio menu item", "link", "switch",
    "toggle", "scroll bar",
}
# What GTK says when nothing names an accessible: its type.
TYPE_NAME = re.compile(r"^(Gtk|Adw|Chrono)[A-Z][A-Za-z]*$")


def skip_or_fail(reason):
    if os.environ.get("CHRONO_ATSPI_REQUIRE"):
        print(f"FAIL: {reason} (CHRONO_ATSPI_REQUIRE is set: this run must not skip)")
        sys.exit(1)
    print(f"SKIP: {reason}")
    sys.exit(SKIP)


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


if len(sys.argv) != 3:
    print("usage: test-atspi.py APP CLI")
    sys.exit(2)
APP, CLI = sys.argv[1], sys.argv[2]

if os.environ.get("DISPLAY") is None:
    skip_or_fail("no X display (run under xvfb-run)")
if os.environ.get(PRIVATE_BUS) is None:
    runner = shutil.which("dbus-run-session")
    if runner is None:
        skip_or_fail("dbus-run-session is missing (Debian package dbus-daemon): no session bus for the accessibility bus")
    env = dict(os.environ, **{PRIVATE_BUS: "1"})
    sys.exit(subprocess.run([runner, "--", sys.executable] + sys.argv, env=env).returncode)

try:
    import gi
    gi.require_version("Atspi", "2.0")
    from gi.repository import Atspi, Gio, GLib
except (ImportError, ValueError) as error:
    skip_or_fail(f"Python's AT-SPI bindings are missing ({error}; Debian packages python3-gi and gir1.2-atspi-2.0)")

XDOTOOL = shutil.which("xdotool")
if XDOTOOL is None:
    skip_or_fail("xdotool is missing: no way to press keys as a person does")


def pump(seconds):
    """Runs the main loop for SECONDS, so that events arrive."""
    context = GLib.MainContext.default()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        while context.pending():
            context.iteration(False)
        time.sleep(0.01)


def wait_for(condition, seconds, what):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        pump(0.1)
    fail(f"waited {seconds} s for {what}")


def states(accessible):
    return accessible.get_state_set()


def on_screen(accessible):
    """Drawn with a size in its window (GTK 4.8 reports no SHOWING state
    below the window: the extents say what is mapped)."""
    try:
        extents = accessible.get_extents(Atspi.CoordType.WINDOW)
    except GLib.Error:
        return False
    return extents.width > 0 and extents.height > 0


def children(accessible):
    for i in range(accessible.get_child_count()):
        child = accessible.get_child_at_index(i)
        if child is not None:
            yield child


def drawn(accessible):
    """Whether ACCESSIBLE may hold something on screen. A stack's page
    is an accessible of GTK's with no geometry: its child says."""
    try:
        if not states(accessible).contains(Atspi.StateType.VISIBLE):
            return False
        return on_screen(accessible) or accessible.get_name() == "GtkStackPage"
    except GLib.Error:
        return False


def walk(accessible, path=()):
    """Every accessible on screen under ACCESSIBLE, with the roles above
    it: what is not drawn (a stack's other pages) is left out whole."""
    role = accessible.get_role_name()
    yield accessible, path
    for child in children(accessible):
        if drawn(child):
            yield from walk(child, path + (role,))


def describe(accessible):
    return f"{accessible.get_role_name()} “{accessible.get_name()}”"


def text_below(accessible, depth=0):
    """The text a screen reader would read for a container: its labels."""
    if depth > 6:
        return ""
    parts = []
    for child in children(accessible):
        if child.get_role_name() == "label" and child.get_name():
            parts.append(child.get_name())
        else:
            parts.append(text_below(child, depth + 1))
    return " ".join(p for p in parts if p)


class App:
    def __init__(self, home):
        env = dict(os.environ)
        # A real accessibility bridge, as for a person with a screen reader.
        env.pop("NO_AT_BRIDGE", None)
        env.pop("GTK_A11Y", None)
        env.update({
            # A critical warning of the application is a bug.
            "G_DEBUG": "fatal-criticals",
            "GSETTINGS_BACKEND": "memory",
            "XDG_CONFIG_HOME": os.path.join(home, "config"),
            "XDG_DATA_HOME": os.path.join(home, "data"),
            "XDG_CACHE_HOME": os.path.join(home, "cache"),
            # No portal here: GTK's own file chooser, driven by keys.
            "GTK_USE_PORTAL": "0",
        })
        self.process = subprocess.Popen([APP], env=env)
        self.root = None

    def find_root(self):
        desktop = Atspi.get_desktop(0)
        for child in children(desktop):
            try:
                if child.get_process_id() == self.process.pid and child.get_child_count() > 0:
                    return child
            except GLib.Error:
                pass
        return None

    def frame(self, title_part):
        for child in children(self.root):
            if child.get_role_name() in ("frame", "dialog", "file chooser") and title_part in (child.get_name() or ""):
                return child
        return None

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def xdotool(*args):
    subprocess.run([XDOTOOL] + list(args), check=True)


def window_of(pid):
    """The X window the process shows, to give the keyboard to."""
    out = subprocess.run([XDOTOOL, "search", "--sync", "--onlyvisible", "--pid", str(pid)],
                         capture_output=True, text=True, timeout=30)
    ids = out.stdout.split()
    if not ids:
        fail("the application shows no window on the X display")
    return ids[-1]


def find_focused(accessible):
    """The accessible that has the keyboard focus, as the tree says."""
    try:
        state = states(accessible)
    except GLib.Error:
        return None
    if state.contains(Atspi.StateType.FOCUSED):
        return accessible
    for child in children(accessible):
        if not drawn(child):
            continue
        found = find_focused(child)
        if found is not None:
            return found
    return None


class Focus:
    """Where the keyboard focus is in a window."""

    def __init__(self):
        self.window = None
        self.current = None

    def wait(self, test, seconds, what):
        def reached():
            self.current = find_focused(self.window)
            return self.current if self.current is not None and test(self.current) else None
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if reached():
                return self.current
            pump(0.2)
        fail(f"waited {seconds} s for the focus to reach {what} (it is on "
             f"{describe(self.current) if self.current else 'nothing'})")


def is_timeline(accessible):
    return accessible.get_role_name() != "page tab" and accessible.get_name() == "Timeline"


def where_in(accessible):
    """The named accessibles around ACCESSIBLE, innermost first."""
    names = []
    parent = accessible.get_parent()
    while parent is not None and len(names) < 3:
        if parent.get_name():
            names.append(describe(parent))
        parent = parent.get_parent()
    return ", ".join(names) or "the window"


def check_names(root, where, problems):
    """Every control on screen has a role and a name of its own: not
    empty, not the toolkit's type name. The parts of a drop-down (its
    button) and of a spin button are named by the whole."""
    n = 0
    for accessible, path in walk(root):
        role = accessible.get_role_name()
        if role not in INTERACTIVE and role not in ("list item", "table cell"):
            continue
        if "combo box" in path or "spin button" in path:
            continue
        name = accessible.get_name() or ""
        if role in ("list item", "table cell"):
            # A row is read by what it holds.
            if not name and not text_below(accessible):
                problems.append(f"{where}: {role} with nothing to read")
            continue
        n += 1
        if not role or role == "unknown":
            problems.append(f"{where}: “{name}” has no role")
        if not name.strip() or TYPE_NAME.match(name):
            problems.append(f"{where}: {role} has no name (a screen reader says “{name}”), in {where_in(accessible)}")
    return n


def main():
    started = time.monotonic()
    home = tempfile.mkdtemp(prefix="chronoscope-atspi-")
    trace = os.path.join(home, "keys.json")
    subprocess.run([CLI, "example", "-o", trace, "-n", "3"], check=True, stdout=subprocess.DEVNULL)

    # The session bus starts the accessibility bus on this call, as a
    # desktop session does for a screen reader.
    try:
        session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        address = session.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress",
                                    None, GLib.VariantType.new("(s)"), Gio.DBusCallFlags.NONE, 20000, None)
    except GLib.Error as error:
        skip_or_fail(f"the AT-SPI bus did not start ({error.message}; Debian package at-spi2-core)")
    print(f"accessibility bus: {address.unpack()[0]}")
    Atspi.init()
    # The registry is started on the first call; one that could not start
    # (it needs the display) is started again on the next.
    for attempt in range(5):
        try:
            Atspi.get_desktop(0).get_child_count()
            break
        except GLib.Error as error:
            reason = error.message
            pump(1.0)
    else:
        skip_or_fail(f"the AT-SPI registry cannot be reached ({reason})")

    focus = Focus()
    app = App(home)
    problems = []
    try:
        app.root = wait_for(app.find_root, 30, "the application on the accessibility bus")
        # Read as it is, not from a cache of the start.
        app.root.set_cache_mask(Atspi.Cache.NONE)
        window = window_of(app.process.pid)
        xdotool("windowfocus", "--sync", window)
        welcome = wait_for(lambda: app.frame("Chronoscope"), 20, "the main window")
        print(f"window: {describe(welcome)}")
        n = check_names(welcome, "welcome", problems)
        print(f"welcome: {n} controls on screen")

        # Open: Ctrl+O, the path typed into the chooser's location, Enter.
        xdotool("key", "--clearmodifiers", "ctrl+o")
        # GTK 4.8 gives its dialogs no role of their own: modal, titled.
        chooser = wait_for(lambda: next((c for c in children(app.root)
                                         if states(c).contains(Atspi.StateType.MODAL)
                                         and states(c).contains(Atspi.StateType.VISIBLE)
                                         and c.get_name() == "Open Trace"), None),
                           20, "the file chooser")
        print(f"chooser: {describe(chooser)}")
        # GTK's own dialog: what it leaves unnamed is GTK's to name, told
        # but not counted.
        gtk_problems = []
        check_names(chooser, "file chooser", gtk_problems)
        for problem in gtk_problems:
            print(f"note, GTK's file chooser: {problem}")
        xdotool("key", "--clearmodifiers", "ctrl+l")
        focus.window = chooser
        focus.wait(lambda a: a.get_role_name() in ("text", "entry"), 10, "the chooser's location")
        xdotool("type", "--delay", "5", trace)
        pump(0.3)
        xdotool("key", "Return")
        document = wait_for(lambda: app.frame("keys.json"), 30, "the trace's window title")
        print(f"opened: {describe(document)}")

        # Navigate: the timeline has the keys at once; they zoom, pan and
        # move from track to track without it losing the focus.
        focus.window = document
        timeline = focus.wait(is_timeline, 30, "the timeline")
        print(f"focus: {describe(timeline)}")
        for key in ("w", "w", "d", "ctrl+Down", "s"):
            xdotool("key", "--clearmodifiers", key)
            pump(0.2)
        focus.wait(is_timeline, 5, "the timeline after the navigation keys")
        pump(1.0)
        n = check_names(document, "document", problems)
        print(f"document: {n} controls on screen")

        # Find and select: Ctrl+F, a name typed, Enter selects the first
        # match; the details pane is named after it.
        xdotool("key", "--clearmodifiers", "ctrl+f")
        focus.wait(lambda a: a.get_role_name() in ("text", "entry") and a.get_name() == "Search span names",
                   10, "the search entry")
        xdotool("type", "--delay", "5", "ProfilerStep")
        pump(1.0)
        xdotool("key", "Return")

        def details():
            for accessible, _ in walk(document):
                name = accessible.get_name() or ""
                if name.startswith("Details"):
                    return accessible
            return None

        pane = wait_for(details, 15, "the details pane of the selected span")
        print(f"selected: {describe(pane)}")
        if "ProfilerStep" not in pane.get_name():
            fail(f"the details pane is named “{pane.get_name()}”, not after the span found")
        first = pane.get_name()
        check_names(document, "details shown", problems)

        # The next match: another span, and the pane says so.
        xdotool("key", "Return")
        wait_for(lambda: (d := details()) is not None and d.get_name() != first and "ProfilerStep" in d.get_name(),
                 15, "the next match in the details pane")
        print(f"next: {describe(details())}")

        # Escape closes the search and gives the timeline the keys back;
        # again, the details pane.
        xdotool("key", "Escape")
        focus.wait(is_timeline, 10, "the timeline after Escape")
        xdotool("key", "Escape")
        wait_for(lambda: details() is None, 10, "the details pane to close")
        print("closed the search and the details")
    finally:
        app.close()
        shutil.rmtree(home, ignore_errors=True)

    for problem in problems:
        print(f"problem: {problem}")
    if problems:
        fail(f"{len(problems)} controls a screen reader cannot tell apart")
    print(f"ok: names, roles and the keyboard path, in {time.monotonic() - started:.0f} s")
    return 0


sys.exit(main())
