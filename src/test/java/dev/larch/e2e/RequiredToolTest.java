package dev.larch.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequiredToolTest {
    private static final String NO_SUCH_TOOL = "larch-no-such-tool";
    private static final String INSTALL = "apt-get install -y larch-no-such-tool";
    private static final String MISSING =
            "larch-no-such-tool is not installed; install it with: apt-get install -y larch-no-such-tool";

    private static boolean noSuchToolInstalled() {
        return RequiredTool.onPath(NO_SUCH_TOOL);
    }

    /** Runs {@code body} with the system property {@code ./larch test} sets, then restores it. */
    private static void withRequireTools(String value, Executable body) throws Throwable {
        String before = System.getProperty(RequiredTool.REQUIRE_TOOLS);
        System.setProperty(RequiredTool.REQUIRE_TOOLS, value);
        try {
            body.execute();
        } finally {
            if (before == null) {
                System.clearProperty(RequiredTool.REQUIRE_TOOLS);
            } else {
                System.setProperty(RequiredTool.REQUIRE_TOOLS, before);
            }
        }
    }

    @Test
    void missingToolFailsNamingWhatToInstallUnderLarchTest() throws Throwable {
        assertFalse(noSuchToolInstalled());
        withRequireTools("true", () -> {
            AssertionFailedError e = assertThrows(
                    AssertionFailedError.class, () -> RequiredTool.check(noSuchToolInstalled(), NO_SUCH_TOOL, INSTALL));
            assertTrue(e.getMessage().startsWith(MISSING), e.getMessage());
        });
    }

    @Test
    void missingToolSkipsWithTheSameMessageWithoutTheProperty() throws Throwable {
        withRequireTools("false", () -> {
            TestAbortedException e = assertThrows(
                    TestAbortedException.class, () -> RequiredTool.check(noSuchToolInstalled(), NO_SUCH_TOOL, INSTALL));
            assertEquals(MISSING, e.getMessage());
        });
    }

    @Test
    void installedToolPassesEitherWay() {
        assertDoesNotThrow(() -> RequiredTool.check(true, NO_SUCH_TOOL, INSTALL, true));
        assertDoesNotThrow(() -> RequiredTool.check(true, NO_SUCH_TOOL, INSTALL, false));
    }

    @Test
    void onPathFindsOnlyCommandsThatAreAllThere() {
        assertTrue(RequiredTool.onPath("sh"));
        assertFalse(RequiredTool.onPath(NO_SUCH_TOOL));
        assertFalse(RequiredTool.onPath("sh", NO_SUCH_TOOL));
    }
}
