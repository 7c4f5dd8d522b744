package dev.larch.bench.cli;

import java.util.List;

/**
 * Two or more results did not measure the same thing (different mix, data, load...); exit code 3
 * with one line per difference. {@code --force} turns the refusal into warnings.
 */
final class MismatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MismatchException(String what, List<String> differences) {
        super(what + " differ (use --force to go on anyway):\n  " + String.join("\n  ", differences));
    }
}
