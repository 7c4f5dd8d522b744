package dev.larch.bench.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

import picocli.CommandLine;

/** The harness version, filtered into a resource at build time; "unknown" when run from an IDE. */
public final class HarnessVersion {
    private static final String VERSION = load();

    private HarnessVersion() {}

    public static String get() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = HarnessVersion.class.getResourceAsStream("/dev/larch/bench/version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "unknown");
            return v.startsWith("${") ? "unknown" : v;
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** Feeds {@code --version}. */
    public static final class Provider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"larch client-bench " + get()};
        }
    }
}
