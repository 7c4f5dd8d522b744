package dev.larch.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static java.nio.charset.StandardCharsets.UTF_8;

/** How a finished command went: its exit code and everything it printed. */
record ProcessResult(List<String> command, int exitCode, String out, String err) {

    /**
     * Runs {@code command} to completion with {@code env} added to this process's environment.
     *
     * @throws AssertionError when it runs longer than {@code timeout} (it is killed first)
     */
    static ProcessResult run(List<String> command, Map<String, String> env, Path workDir, Duration timeout) {
        return run(command, env, workDir, timeout, "");
    }

    /** As above, with {@code input} written to the command's standard input before it is closed. */
    static ProcessResult run(
            List<String> command, Map<String, String> env, Path workDir, Duration timeout, String input) {
        ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.PIPE);
        builder.environment().putAll(env);
        if (workDir != null) {
            builder.directory(workDir.toFile());
        }
        try {
            Process process = builder.start();
            try (var stdin = process.getOutputStream()) {
                stdin.write(input.getBytes(UTF_8));
            }
            CapturedStream out = new CapturedStream(process.getInputStream(), "out-" + process.pid());
            CapturedStream err = new CapturedStream(process.getErrorStream(), "err-" + process.pid());
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError("timed out after " + timeout + ": " + shown(command) + "\n--- stdout\n"
                        + out.text() + "--- stderr\n" + err.text());
            }
            out.awaitEnd(Duration.ofSeconds(10));
            err.awaitEnd(Duration.ofSeconds(10));
            return new ProcessResult(List.copyOf(command), process.exitValue(), out.text(), err.text());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + command, e);
        }
    }

    /** The command, exit code and output, for assertion messages. */
    String describe() {
        return "$ " + shown(command) + "\nexit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }

    @Override
    public String toString() {
        return describe();
    }

    /** The command line with the (long) class path elided. */
    static String shown(List<String> command) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < command.size(); i++) {
            b.append(i == 0 ? "" : " ")
                    .append(i > 0 && command.get(i - 1).equals("-cp") ? "<class path>" : command.get(i));
        }
        return b.toString();
    }
}
