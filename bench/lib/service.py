"""What the Python benchmarks share: a server of their own on a free port, and a prober that times
/healthz on one more keep-alive connection while the load runs, for the p99 beside each load."""
import http.client
import re
import subprocess
import threading
import time

PROBE_EVERY_S = 0.02


def start(binary, options, stderr=subprocess.DEVNULL):
    """Starts `binary` on 127.0.0.1 at a free port with `options`; returns the process and the port."""
    process = subprocess.Popen([binary, "--host", "127.0.0.1", "--port", "0", *options],
                               stdout=subprocess.PIPE, stderr=stderr, text=True)
    port = int(re.search(r":(\d+)", process.stdout.readline()).group(1))
    return process, port


def percentile(values, share):
    values = sorted(values)
    return values[min(len(values) - 1, int(share * len(values)))] if values else float("nan")


class HealthzProbe:
    """Times GET /healthz every PROBE_EVERY_S from start() until stop(); `latencies` in ms."""

    def __init__(self, port):
        self.port, self.latencies = port, []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run)

    def _run(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        while not self._stop.is_set():
            began = time.monotonic()
            connection.request("GET", "/healthz")
            connection.getresponse().read()
            self.latencies.append((time.monotonic() - began) * 1e3)
            time.sleep(PROBE_EVERY_S)
        connection.close()

    def start(self):
        self._thread.start()

    def stop(self):
        self._stop.set()
        self._thread.join()

    def p99(self):
        return percentile(self.latencies, 0.99)
