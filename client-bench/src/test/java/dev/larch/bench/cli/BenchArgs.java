package dev.larch.bench.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a short {@code bench} run in a test: one run of one second with no warm-up
 * unless a test says otherwise, and any option replaceable, so each test states only what it is
 * about.
 */
final class BenchArgs {
    private final List<String> args = new ArrayList<>();

    private BenchArgs() {}

    /** {@code bench --mix MIX --port PORT --warmup 0 --duration 1 --runs 1 --data DATA --out OUT}. */
    static BenchArgs of(String mix, int port, Path data, Path out) {
        BenchArgs b = new BenchArgs();
        b.args.addAll(List.of(
                "bench",
                "--mix",
                mix,
                "--port",
                Integer.toString(port),
                "--warmup",
                "0",
                "--duration",
                "1",
                "--runs",
                "1",
                "--data",
                data.toString(),
                "--out",
                out.toString()));
        return b;
    }

    /**
     * Adds options: an option followed by a value (anything not starting with {@code --}) replaces
     * that option's value if it is already there, otherwise both are appended; an option followed by
     * another option, or last, is a flag and is appended.
     */
    BenchArgs with(String... options) {
        for (int i = 0; i < options.length; i++) {
            boolean hasValue = i + 1 < options.length && !options[i + 1].startsWith("--");
            int at = args.indexOf(options[i]);
            if (at >= 0 && hasValue) {
                args.set(at + 1, options[++i]);
            } else {
                args.add(options[i]);
                if (hasValue) {
                    args.add(options[++i]);
                }
            }
        }
        return this;
    }

    String[] toArray() {
        return args.toArray(String[]::new);
    }

    /** Runs the CLI in-process with these arguments. */
    CliRun run() {
        return CliRun.of(toArray());
    }
}
