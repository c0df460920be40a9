#!/usr/bin/env python3
"""Forwards cclanalytics' events to an MQTT broker.

Runs a pipeline (gst-launch syntax) and publishes every "ccl-event" element message as JSON to
<prefix>/events/<rule>, and with --counts every "ccl-analytics" message (the rules' counts, once
per frame) to <prefix>/counts. The JSON object has the message's fields under their names
(type, rule, track-id, direction, timestamp, stream-time, running-time, at, occupancy; the counts:
lines and zones as lists of objects); times are nanoseconds, 18446744073709551615 where unknown.
At EOS it waits until the broker acknowledged every message (QoS 1), then exits 0; Ctrl-C ends
the stream with EOS the same way. Exit status: 1 for a pipeline error or messages left
unacknowledged, 2 for a bad pipeline or options, 3 when the broker cannot be reached.

  examples/mqtt_events.py --host localhost --counts
  examples/mqtt_events.py --prefix site1/cam3 'filesrc location=cam3.mp4 ! decodebin ! cudaccl
      foreground=adaptive min-area=50 ! ccltracker ! cclanalytics rules-file=door.json ! fakesink'

Needs PyGObject (python3-gi) and paho-mqtt (python3-paho-mqtt, 1.6 or 2.x).
"""
import argparse
import json
import os
import signal
import sys
import threading
import warnings

try:
    import gi
except ImportError:
    sys.exit("mqtt_events.py: PyGObject (python3-gi) is not installed for %s (Debian's is /usr/bin/python3)"
             % sys.executable)
gi.require_version("Gst", "1.0")
from gi.repository import GLib, GObject, Gst  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PIPELINE = ("cclblobsrc scene=daylight num-buffers=300 ! cudaccl foreground=adaptive min-area=50 ! "
                    "ccltracker ! cclanalytics rules-file=" + os.path.join(HERE, "daylight_rules.json") +
                    " ! fakesink")


def fail(status, text):
    print("mqtt_events.py: " + text, file=sys.stderr)
    return status


def field_value(s, name):
    """A structure field as a JSON value: arrays and lists become lists, structures objects."""
    kind = GObject.type_name(s.get_field_type(name))
    if kind in ("GstValueArray", "GstValueList"):
        ok, array = s.get_array(name) if kind == "GstValueArray" else s.get_list(name)
        with warnings.catch_warnings():  # GValueArray is deprecated in GLib but is what GI gives here
            warnings.simplefilter("ignore", DeprecationWarning)
            items = [array.get_nth(i) for i in range(array.n_values)] if ok else []
        return [structure_to_dict(v) if isinstance(v, Gst.Structure) else v for v in items]
    value = s.get_value(name)
    if isinstance(value, Gst.Structure):
        return structure_to_dict(value)
    if isinstance(value, (GObject.GEnum, GObject.GFlags)):
        return value.value_nick
    return value


def structure_to_dict(s):
    return {s.nth_field_name(i): field_value(s, s.nth_field_name(i)) for i in range(s.n_fields())}


def topic_level(name):
    """A rule name as one topic level: MQTT wildcards and the level separator are not allowed."""
    return "".join("_" if c in "/+#" else c for c in name) or "_"


class Broker:
    """A paho client connected (CONNACK received) with its network loop on a thread."""

    def __init__(self, host, port, client_id, timeout):
        try:
            import paho.mqtt.client as mqtt
        except ImportError:
            raise RuntimeError("paho-mqtt is not installed (apt-get install python3-paho-mqtt)")
        self.mqtt = mqtt
        if hasattr(mqtt, "CallbackAPIVersion"):  # paho 2.x: the 1.x callback signatures, used below
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION1, client_id=client_id)
        else:
            self.client = mqtt.Client(client_id=client_id)
        self.connected = threading.Event()
        self.refusal = None
        self.client.on_connect = self._on_connect
        where = "%s:%d" % (host, port)
        try:
            self.client.connect(host, port, keepalive=30)
        except (OSError, ValueError) as e:
            raise RuntimeError("cannot connect to the MQTT broker at %s: %s" % (where, e))
        self.client.loop_start()
        if not self.connected.wait(timeout) or self.refusal:
            self.close()
            raise RuntimeError("the MQTT broker at %s %s" % (
                where, "refused the connection: " + self.refusal if self.refusal else
                "did not answer within %g s" % timeout))

    def _on_connect(self, client, userdata, flags, rc):
        if rc != 0:
            self.refusal = self.mqtt.connack_string(rc)
        self.connected.set()

    def publish(self, topic, payload, qos):
        info = self.client.publish(topic, payload, qos=qos)
        if info.rc != self.mqtt.MQTT_ERR_SUCCESS:
            raise RuntimeError("publish to %s failed: %s" % (topic, self.mqtt.error_string(info.rc)))
        return info

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()


def forward(pipeline, broker, prefix, counts, qos, print_events, ack_timeout):
    """Plays `pipeline` to EOS, publishing its analytics messages. Returns the exit status."""
    stop = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda *_: stop.set())
    pending = []
    status = 0
    bus = pipeline.get_bus()
    try:
        if pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
            status = 1  # the error message on the bus says why
        eos_sent = False
        wanted = Gst.MessageType.ELEMENT | Gst.MessageType.EOS | Gst.MessageType.ERROR
        while True:
            if stop.is_set() and not eos_sent:
                pipeline.send_event(Gst.Event.new_eos())  # Ctrl-C: end the stream, deliver what it gave
                eos_sent = True
            msg = bus.timed_pop_filtered(100 * Gst.MSECOND, wanted)
            if msg is None:
                if status:  # failed to start and no error came
                    break
                continue
            if msg.type == Gst.MessageType.EOS:
                break
            if msg.type == Gst.MessageType.ERROR:
                err, debug = msg.parse_error()
                status = fail(1, "pipeline error from %s: %s%s" % (
                    msg.src.get_name(), err.message, " (%s)" % debug if debug else ""))
                break
            s = msg.get_structure()
            if s is None:
                continue
            if s.get_name() == "ccl-event":
                event = structure_to_dict(s)
                topic = "%s/events/%s" % (prefix, topic_level(str(event.get("rule", ""))))
            elif s.get_name() == "ccl-analytics" and counts:
                event = structure_to_dict(s)
                topic = prefix + "/counts"
            else:
                continue
            payload = json.dumps(event, separators=(",", ":"))
            pending.append(broker.publish(topic, payload, qos))
            if print_events:
                try:
                    print(topic, payload, flush=True)
                except BrokenPipeError:  # the reader left (| head): keep publishing, stop printing
                    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                    print_events = False
    finally:
        pipeline.set_state(Gst.State.NULL)
        signal.signal(signal.SIGINT, previous)
    # Every message acknowledged (QoS 1) or written out (QoS 0) before we disconnect.
    for info in pending:
        try:
            info.wait_for_publish(ack_timeout)
        except (RuntimeError, ValueError):
            pass
    unacked = sum(1 for info in pending if not info.is_published())
    if unacked:
        status = fail(1, "%d of %d messages not acknowledged by the broker within %g s" % (
            unacked, len(pending), ack_timeout))
    return status


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline", nargs="*", help="pipeline description (gst-launch syntax; default: the "
                        "daylight scene with examples/daylight_rules.json)")
    parser.add_argument("--host", default="localhost", help="MQTT broker host (localhost)")
    parser.add_argument("--port", type=int, default=1883, help="MQTT broker port (1883)")
    parser.add_argument("--prefix", default="gst-ccl", help="topic prefix (gst-ccl)")
    parser.add_argument("--counts", action="store_true", help="also publish every frame's counts to <prefix>/counts")
    parser.add_argument("--qos", type=int, choices=(0, 1, 2), default=1, help="MQTT QoS (1: acknowledged)")
    parser.add_argument("--client-id", default="", help="MQTT client id (default: one made by paho)")
    parser.add_argument("--print", dest="print_events", action="store_true",
                        help="also print each message as it is published: TOPIC JSON")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds to wait for the broker to connect, and for the last acknowledgements (10)")
    args = parser.parse_args(argv)
    if not args.prefix or any(c in args.prefix for c in "+#"):
        return fail(2, "--prefix '%s' is not a topic to publish to (empty, or has + or #)" % args.prefix)

    Gst.init(None)
    description = " ".join(args.pipeline) if args.pipeline else DEFAULT_PIPELINE
    try:
        pipeline = Gst.parse_launch(description)
    except GLib.Error as e:
        return fail(2, "bad pipeline: %s\n  in: %s" % (e.message, description))
    try:
        broker = Broker(args.host, args.port, args.client_id, args.timeout)
    except RuntimeError as e:
        return fail(3, str(e))
    try:
        return forward(pipeline, broker, args.prefix, args.counts, args.qos, args.print_events, args.timeout)
    except RuntimeError as e:
        return fail(1, str(e))
    finally:
        broker.close()


if __name__ == "__main__":
    sys.exit(main())
