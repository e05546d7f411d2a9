"""Ctrl-C during sampling: KeyboardInterrupt once every worker has stopped, no crash, no file."""
import _thread
import os
import signal
import threading
import time

import pytest

import impactset

# The run asked for would take hours; stopping takes one range or block per worker (well under a
# second). The bound absorbs a loaded host.
STOP_SECONDS = 20
ENDLESS = 10**9


def fire(how):
    if how == "interrupt_main":
        _thread.interrupt_main()
    else:
        os.kill(os.getpid(), signal.SIGINT)


@pytest.mark.parametrize("how", ["interrupt_main", "sigint"])
@pytest.mark.parametrize("threads,sets", [(1, False), (2, False), (2, True)])
def test_ctrl_c_raises_keyboard_interrupt_and_writes_nothing(rocking_block, tmp_path, how,
                                                             threads, sets):
    out = tmp_path / "never.h5"
    timer = threading.Timer(0.3, fire, args=(how,))
    t0 = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        impactset.run(rocking_block, samples=ENDLESS, threads=threads, sets=sets, out=out)
    elapsed = time.monotonic() - t0
    timer.join()
    assert elapsed < STOP_SECONDS
    assert list(tmp_path.iterdir()) == []  # neither the file nor a temporary one
    # The module is still usable.
    assert impactset.sample(rocking_block, samples=100, threads=threads).count == 100
