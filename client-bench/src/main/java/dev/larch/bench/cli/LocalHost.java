package dev.larch.bench.cli;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** This machine's name as recorded in a result, so merged results say where each generator ran. */
final class LocalHost {
    private LocalHost() {}

    /** The host name; "localhost" if the machine cannot resolve its own name. */
    static String name() {
        String env = System.getenv("HOSTNAME");
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return env == null || env.isBlank() ? "localhost" : env;
        }
    }
}
