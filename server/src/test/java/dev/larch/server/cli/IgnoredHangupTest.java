package dev.larch.server.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IgnoredHangupTest {
    private static String status(String sigIgn) {
        return "Name:\tjava\nState:\tS (sleeping)\nSigBlk:\t0000000000000000\nSigIgn:\t" + sigIgn
                + "\nSigCgt:\t0000000000004442\n";
    }

    @Test
    void theLowestBitOfSigIgnIsHangup() {
        assertTrue(IgnoredHangup.ignoredIn(status("0000000000000001")), "nohup: HUP alone");
        assertTrue(IgnoredHangup.ignoredIn(status("0000000000001003")), "HUP with INT and PIPE");
        assertFalse(IgnoredHangup.ignoredIn(status("0000000000001000")), "PIPE only");
        assertFalse(IgnoredHangup.ignoredIn(status("0000000000000002")), "INT only");
        assertFalse(IgnoredHangup.ignoredIn("Name:\tjava\n"), "no SigIgn line");
    }

    @Test
    void aProcessUnderNohupIsToldFromOneWithout() throws Exception {
        Process plain = new ProcessBuilder("sleep", "30").start();
        Process nohup = new ProcessBuilder("nohup", "sleep", "30").start();
        try {
            // nohup execs sleep once it has set SIGHUP to ignored: wait for that.
            for (int i = 0; i < 100 && !IgnoredHangup.ignoredBy(nohup.pid()); i++) {
                Thread.sleep(20);
            }
            assertTrue(IgnoredHangup.ignoredBy(nohup.pid()), "under nohup");
            if (!IgnoredHangup.ignoredBy(ProcessHandle.current().pid())) {
                // (A test run itself under nohup passes the ignored SIGHUP on to every child.)
                assertFalse(IgnoredHangup.ignoredBy(plain.pid()), "started plainly");
            }
            assertFalse(IgnoredHangup.ignoredBy(Long.MAX_VALUE), "no such process: false, no exception");
        } finally {
            plain.destroyForcibly();
            nohup.destroyForcibly();
        }
    }
}
