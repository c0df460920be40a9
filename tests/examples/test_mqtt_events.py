#!/usr/bin/env python3
"""examples/mqtt_events.py against a real broker: a mosquitto started here on a free localhost
port, a paho subscriber on <prefix>/#, the example run on a pipeline with known events. Every
"ccl-event" the pipeline's bus carries (collected here by running the same pipeline in process
and reading each field by its documented type) must arrive as JSON on <prefix>/events/<rule>, in
order, and nothing else; with --counts one message per frame on <prefix>/counts, the last one
equal to the last "ccl-analytics" message. Then the errors: no broker, a bad pipeline, a failing
pipeline. Exit 77 (skip) with the reason when mosquitto, paho-mqtt or cclanalytics are missing.

Usage: test_mqtt_events.py EXAMPLE RULES_FILE (GST_PLUGIN_PATH at the built plugin)
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import warnings

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

SKIP = 77
warnings.filterwarnings("ignore", "GObject.ValueArray.get_nth is deprecated", DeprecationWarning)


def skip(reason):
    print("SKIP: " + reason)
    sys.exit(SKIP)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def mosquitto_binary():
    return shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if os.access(p, os.X_OK)), None)


class Mosquitto:
    """A broker of our own on 127.0.0.1:port, anonymous, nothing persisted; stopped on exit."""

    def __init__(self, binary, workdir):
        self.port = free_port()
        conf = os.path.join(workdir, "mosquitto.conf")
        with open(conf, "w") as f:
            f.write("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\n" % self.port)
        self.log = open(os.path.join(workdir, "mosquitto.log"), "w")
        self.proc = subprocess.Popen([binary, "-c", conf], stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 10
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("mosquitto exited with %d (see %s)" % (self.proc.returncode, self.log.name))
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not listen on port %d within 10 s" % self.port)

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


class Subscriber:
    """Collects (topic, payload) of everything under prefix/#, in arrival order."""

    def __init__(self, mqtt, port, prefix):
        self.messages = []
        self.lock = threading.Lock()
        subscribed = threading.Event()
        if hasattr(mqtt, "CallbackAPIVersion"):
            self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION1)
        else:
            self.client = mqtt.Client()
        self.client.on_connect = lambda c, u, f, rc: c.subscribe(prefix + "/#", qos=1)
        self.client.on_subscribe = lambda *args: subscribed.set()
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        if not subscribed.wait(10):
            raise RuntimeError("the subscriber got no SUBACK")

    def _on_message(self, client, userdata, msg):
        with self.lock:
            self.messages.append((msg.topic, msg.payload.decode()))

    def wait_for(self, n, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline and len(self.messages) < n:
            time.sleep(0.05)
        time.sleep(0.3)  # anything beyond n would show too
        with self.lock:
            return list(self.messages)

    def stop(self):
        self.client.disconnect()
        self.client.loop_stop()


# The oracle: each documented field read by its documented type, not by the example's converter.
EVENT_FIELDS = {"type": "string", "rule": "string", "track-id": "uint", "direction": "string",
                "timestamp": "uint64", "stream-time": "uint64", "running-time": "uint64", "at": "uint64",
                "occupancy": "uint"}


def read_field(s, name, kind):
    ok, value = {"string": lambda: (s.has_field(name), s.get_string(name)),
                 "uint": lambda: s.get_uint(name), "uint64": lambda: s.get_uint64(name),
                 "boolean": lambda: s.get_boolean(name)}[kind]()
    assert ok, "field %s of %s is not a %s" % (name, s.to_string(), kind)
    return value


def event_of(s):
    names = [s.nth_field_name(i) for i in range(s.n_fields())]
    unknown = [n for n in names if n not in EVENT_FIELDS]
    assert not unknown, "ccl-event has fields this test does not know: %s (update EVENT_FIELDS)" % unknown
    return {n: read_field(s, n, EVENT_FIELDS[n]) for n in names}


def counts_of(s):
    def items(name, fields):
        ok, array = s.get_array(name)
        assert ok, name
        out = []
        for i in range(array.n_values):
            item = array.get_nth(i)
            out.append({f: read_field(item, f, kind) for f, kind in fields.items()})
        return out
    return {"lines": items("lines", {"name": "string", "forward": "uint64", "backward": "uint64"}),
            "zones": items("zones", {"name": "string", "count": "uint", "entered": "uint64",
                                     "overcrowded": "boolean"})}


def bus_messages(description):
    """Plays the pipeline here; its ccl-event dicts and ccl-analytics counts, in order."""
    pipeline = Gst.parse_launch(description)
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    events, counts = [], []
    while True:
        msg = bus.timed_pop_filtered(60 * Gst.SECOND, Gst.MessageType.ELEMENT | Gst.MessageType.EOS |
                                     Gst.MessageType.ERROR)
        assert msg is not None, "the pipeline did not end"
        assert msg.type != Gst.MessageType.ERROR, msg.parse_error()[0].message
        if msg.type == Gst.MessageType.EOS:
            break
        s = msg.get_structure()
        if s.get_name() == "ccl-event":
            events.append(event_of(s))
        elif s.get_name() == "ccl-analytics":
            counts.append(counts_of(s))
    pipeline.set_state(Gst.State.NULL)
    return events, counts


def run_example(example, *args):
    return subprocess.run([sys.executable, example] + list(args), capture_output=True, text=True, timeout=120)


def expect(condition, text, failures):
    if not condition:
        failures.append(text)
        print("FAIL: " + text)


def main():
    example, rules = sys.argv[1], sys.argv[2]
    try:
        import paho.mqtt.client as mqtt
    except ImportError:
        skip("paho-mqtt is not installed (apt-get install python3-paho-mqtt)")
    binary = mosquitto_binary()
    if not binary:
        skip("mosquitto is not installed (apt-get install mosquitto)")
    Gst.init(None)
    if Gst.ElementFactory.make("cclanalytics", None) is None:  # make: the plugin must load, not only be registered
        skip("cclanalytics not built, or its plugin does not load here")

    # The daylight scene's objects cross the rules' line both ways and visit its zone.
    description = ("cclblobsrc scene=daylight num-buffers=300 ! cudaccl backend=cpu foreground=adaptive "
                   "min-area=50 ! ccltracker ! cclanalytics rules-file=%s ! fakesink" % rules)
    events, counts = bus_messages(description)
    failures = []
    types = {e["type"] for e in events}
    expect({"line-cross", "zone-enter", "zone-exit"} <= types,
           "the pipeline should give line crossings, zone enters and exits; it gave %s" % sorted(types), failures)

    workdir = tempfile.mkdtemp(prefix="ccl-mqtt-")
    broker = Mosquitto(binary, workdir)
    try:
        prefix = "ccl-test/%d" % os.getpid()
        sub = Subscriber(mqtt, broker.port, prefix)
        result = run_example(example, "--host", "127.0.0.1", "--port", str(broker.port), "--prefix", prefix,
                             "--counts", description)
        expect(result.returncode == 0, "the example exited %d: %s" % (result.returncode, result.stderr), failures)
        received = sub.wait_for(len(events) + len(counts))
        sub.stop()

        got_events = [(t, json.loads(p)) for t, p in received if t.startswith(prefix + "/events/")]
        got_counts = [json.loads(p) for t, p in received if t == prefix + "/counts"]
        others = [t for t, _ in received if not t.startswith(prefix + "/events/") and t != prefix + "/counts"]
        expect(not others, "messages on unexpected topics: %s" % others[:5], failures)
        expect(all(t == "%s/events/%s" % (prefix, e.get("rule")) for t, e in got_events),
               "an event on another rule's topic", failures)
        # One publisher, QoS 1: each topic keeps the order the events had on the bus.
        for rule in sorted({e["rule"] for e in events} | {e.get("rule") for _, e in got_events}):
            want = [e for e in events if e["rule"] == rule]
            got = [e for _, e in got_events if e.get("rule") == rule]
            expect(got == want, "rule %s: %d events on the bus, %d received; first difference: %s" % (
                rule, len(want), len(got),
                next(((w, g) for w, g in zip(want, got) if w != g), "(one list is a prefix of the other)")),
                failures)
        expect(len(got_counts) == len(counts), "%d counts messages for %d frames" % (len(got_counts), len(counts)),
               failures)
        if got_counts and counts:
            last = {k: got_counts[-1].get(k) for k in ("lines", "zones")}
            expect(last == counts[-1], "last counts %s, the bus said %s" % (last, counts[-1]), failures)

        # No broker there: a clear error and status 3.
        result = run_example(example, "--host", "127.0.0.1", "--port", str(free_port()), "--timeout", "3",
                             "fakesrc num-buffers=1 ! fakesink")
        expect(result.returncode == 3 and "cannot connect to the MQTT broker at 127.0.0.1" in result.stderr,
               "no broker: status %d, %r" % (result.returncode, result.stderr), failures)
        # A bad description: status 2 naming what is wrong.
        result = run_example(example, "--port", str(broker.port), "nosuchelement ! fakesink")
        expect(result.returncode == 2 and "bad pipeline" in result.stderr and "nosuchelement" in result.stderr,
               "bad pipeline: status %d, %r" % (result.returncode, result.stderr), failures)
        # A pipeline that fails while running: status 1 with GStreamer's error.
        result = run_example(example, "--port", str(broker.port), "filesrc location=/nonexistent/x ! fakesink")
        expect(result.returncode == 1 and "pipeline error" in result.stderr,
               "failing pipeline: status %d, %r" % (result.returncode, result.stderr), failures)
    finally:
        broker.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    print("%d events (%s) and %d counts messages compared" % (
        len(events), ", ".join("%s %d" % (t, sum(e["type"] == t for e in events)) for t in sorted(types)),
        len(counts)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
