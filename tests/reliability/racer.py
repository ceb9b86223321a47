#!/usr/bin/env python3
"""Swaps two paths with renameat2(RENAME_EXCHANGE) in a tight loop, for the race tests.

Usage: racer.py A B. Commands on stdin, one a line: `run [PAUSE_US]` starts swapping (with
PAUSE_US, it rests that long after each pair of swaps: B is then a link only in short bursts,
so a long operation runs into it at random steps instead of at its first); `stop` stops with
both paths back where they began and answers `stopped <swaps so far>`; end of input stops and
exits. A swap is atomic: at every instant each name holds one of the two, never nothing.
"""
import ctypes
import os
import sys
import threading
import time

AT_FDCWD = -100
RENAME_EXCHANGE = 2

libc = ctypes.CDLL(None, use_errno=True)
renameat2 = libc.renameat2
renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
renameat2.restype = ctypes.c_int

a, b = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2])
go = threading.Event()
lock = threading.Lock()
swaps = 0
pause = 0.0


def swap():
    global swaps
    if renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
        err = ctypes.get_errno()
        sys.stderr.write(f"renameat2: {os.strerror(err)}\n")
        os._exit(2)
    swaps += 1


def loop():
    while True:
        go.wait()
        with lock:
            if go.is_set():
                swap()
                if pause:
                    swap()
        if pause:
            time.sleep(pause)


def stop():
    go.clear()
    with lock:
        if swaps % 2:
            swap()
        sys.stdout.write(f"stopped {swaps}\n")
        sys.stdout.flush()


threading.Thread(target=loop, daemon=True).start()
sys.stdout.write("ready\n")
sys.stdout.flush()
for line in sys.stdin:
    command, *args = line.split()
    if command == "run":
        pause = int(args[0]) / 1e6 if args else 0.0
        go.set()
    elif command == "stop":
        stop()
stop()
