package dev.larch.server.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import dev.larch.server.DataDirectoryLock;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ./larch reload}: asks the server serving a data directory to re-read its config file, by
 * sending it SIGHUP. The server logs what changed; this command only says whether the signal went.
 */
@Command(
        name = "reload",
        mixinStandardHelpOptions = true,
        description = "Make the running server re-read its config file (sends it SIGHUP).")
final class ReloadCommand implements Callable<Integer> {
    @Mixin
    ConfigOptions options;

    @Override
    @SuppressWarnings("try") // the lock is taken only to learn that nobody holds it
    public Integer call() throws Exception {
        Path dataDir = options.loadFile().config().storage().dataDir();
        if (!Files.isDirectory(dataDir)) {
            System.err.println("larch: reload: no data directory " + dataDir + ", so no server to reload");
            return 1;
        }
        try (DataDirectoryLock free = DataDirectoryLock.acquire(dataDir, "reload")) {
            System.err.println("larch: reload: no server runs on " + dataDir + " (its lock is free)");
            return 1;
        } catch (IllegalStateException held) {
            // Someone holds the directory: a server, or an import or restore.
        }
        OptionalLong pid = PidFile.read(dataDir);
        if (pid.isEmpty() || ProcessHandle.of(pid.getAsLong()).isEmpty()) {
            System.err.println("larch: reload: " + dataDir + " is held by a process that is not a serving Larch"
                    + " (an import or a restore?); nothing to reload");
            return 1;
        }
        if (IgnoredHangup.ignoredBy(pid.getAsLong())) {
            System.err.println("larch: reload: the server (pid " + pid.getAsLong() + ") ignores SIGHUP: it was started"
                    + " with SIGHUP ignored (under nohup?), so it cannot reload; restart it to apply the config file");
            return 1;
        }
        return signal(pid.getAsLong());
    }

    /** Java cannot send a signal but TERM and KILL, so {@code kill -HUP} does. */
    private static int signal(long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(pid))
                .redirectErrorStream(true)
                .start();
        String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            System.err.println("larch: reload: kill -HUP " + pid + " failed: " + output.strip());
            return 1;
        }
        System.out.println("Sent SIGHUP to the Larch server (pid " + pid + "); its log says what changed");
        return 0;
    }
}
