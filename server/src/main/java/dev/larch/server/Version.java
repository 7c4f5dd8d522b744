package dev.larch.server;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The Larch version this build carries (from Maven's project version). */
public final class Version {
    private static final String VERSION = load();

    private Version() {}

    public static String get() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("/larch-version.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
