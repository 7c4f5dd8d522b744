package dev.larch.e2e;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The command line {@code ./larch serve|import|export} runs: this test JVM's own {@code java}, the
 * test class path (which holds larch-server and its dependencies), the flags the launcher passes
 * and {@code dev.larch.server.cli.LarchMain}.
 */
final class LarchJvm {
    static final String MAIN_CLASS = "dev.larch.server.cli.LarchMain";

    /**
     * Extra JVM options, as a user would put them in {@code LARCH_JAVA_OPTS}. The default keeps the
     * JIT at C1: these short-lived servers start in half the CPU time on a busy machine.
     */
    private static final String EXTRA_OPTIONS = System.getProperty("larch.e2e.javaOpts", "-XX:TieredStopAtLevel=1");

    private LarchJvm() {}

    /** {@code java <launcher flags> -cp <test class path> LarchMain <args>}. */
    static List<String> command(List<String> args) {
        return command(List.of(), args);
    }

    /** As {@link #command(List)}, with {@code jvmOptions} after the launcher's own flags. */
    static List<String> command(List<String> jvmOptions, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.addAll(List.of(
                "--add-opens",
                "java.base/java.nio=ALL-UNNAMED",
                "--add-opens",
                "java.base/sun.nio.ch=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED"));
        if (Runtime.version().feature() >= 23) {
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        Arrays.stream(EXTRA_OPTIONS.trim().split("\\s+"))
                .filter(s -> !s.isEmpty())
                .forEach(command::add);
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(MAIN_CLASS);
        command.addAll(args);
        return command;
    }

    static String javaBinary() {
        return ProcessHandle.current()
                .info()
                .command()
                .orElseGet(() ->
                        Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }
}
