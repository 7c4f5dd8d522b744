package dev.larch.bench.cli;

import java.util.concurrent.Callable;

import dev.larch.bench.psearch.PersistentSearchRate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./larch psearch-rate}: persistent search fan-out against a running server. */
@Command(
        name = "psearch-rate",
        mixinStandardHelpOptions = true,
        description = "Persistent search fan-out: N listeners on one entry, M modifies of it; modifies/s and"
                + " notifications/s delivered.")
final class PsearchRateCommand implements Callable<Integer> {
    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Server host (default ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", required = true, description = "Server port.")
    int port;

    @Option(names = "--bind-dn", required = true, description = "DN to bind as; it must be allowed to modify --entry.")
    String bindDn;

    @Option(names = "--bind-password", required = true, description = "Password for --bind-dn.")
    String bindPassword;

    @Option(
            names = "--entry",
            defaultValue = "uid=psearch-rate,dc=example,dc=com",
            description =
                    "Entry the listeners watch and the writer modifies; added when absent (default ${DEFAULT-VALUE}).")
    String entry;

    @Option(
            names = "--listeners",
            defaultValue = "100",
            description = "Persistent searches (default ${DEFAULT-VALUE}).")
    int listeners;

    @Option(names = "--modifies", defaultValue = "2000", description = "Modifies to make (default ${DEFAULT-VALUE}).")
    int modifies;

    @Option(
            names = "--timeout",
            defaultValue = "120",
            description = "Seconds to wait for the last notification after the last modify (default ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    @Override
    public Integer call() throws Exception {
        if (listeners < 1 || modifies < 1) {
            throw new BadInputException("--listeners and --modifies must be at least 1");
        }
        PersistentSearchRate.Result result = PersistentSearchRate.run(new PersistentSearchRate.Options(
                host, port, bindDn, bindPassword, entry, listeners, modifies, timeoutSeconds));
        result.print(System.out);
        return result.complete() ? 0 : BenchMain.EXIT_FAILURE;
    }
}
