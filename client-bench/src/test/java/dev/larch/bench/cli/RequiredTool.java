package dev.larch.bench.cli;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * What a test does when an external program it needs is not installed. Under {@code ./larch test},
 * which sets the system property {@value #REQUIRE_TOOLS} to true, the test fails: a suite that
 * quietly skipped the tests needing the program would still look green. A developer running one
 * module with plain {@code mvn} gets a skip instead. Either way the message says what to install.
 */
final class RequiredTool {
    static final String REQUIRE_TOOLS = "larch.test.require-tools";

    private RequiredTool() {}

    /** Returns if {@code installed}; otherwise fails or skips the calling test, as the build asks. */
    static void check(boolean installed, String tool, String installCommand) {
        check(installed, tool, installCommand, Boolean.getBoolean(REQUIRE_TOOLS));
    }

    static void check(boolean installed, String tool, String installCommand, boolean required) {
        if (installed) {
            return;
        }
        String missing = tool + " is not installed; install it with: " + installCommand;
        if (required) {
            fail(missing + " (" + REQUIRE_TOOLS + "=true, as ./larch test sets it, makes this a failure)");
        }
        // A class skipped from @BeforeAll shows up in Maven's output as "Tests run: 0" and nothing
        // else; say why where the developer looks.
        System.err.println("Skipping: " + missing);
        abort(missing);
    }
}
