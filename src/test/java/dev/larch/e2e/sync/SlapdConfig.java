package dev.larch.e2e.sync;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * slapd.conf for one slapd of the sync tests: back-mdb holding {@value #SUFFIX}, the schemas the
 * generated tree and Larch's entries use, and either the syncprov overlay (a provider) or a
 * syncrepl stanza (a consumer). {@code loglevel 0}: slapd formats its stats log for every operation
 * otherwise, even with no syslog to receive it. {@code dbnosync}: a consumer's initial refresh is one
 * LMDB transaction per entry, and an fsync each made a 20,000-entry refresh take minutes here; the
 * tests kill slapd, never the machine, and a killed process's writes stay in the page cache.
 */
final class SlapdConfig {
    static final String SUFFIX = "dc=example,dc=com";
    static final String SCHEMA_DIR = "/etc/ldap/schema";
    static final Path MODULE_DIR = Path.of("/usr/lib/ldap");
    /** The provider's serverID: the {@code #001#} in its CSNs and the {@code sid=001} in its cookies. */
    static final int PROVIDER_SERVER_ID = 1;

    private SlapdConfig() {}

    /**
     * A provider: server ID 1 (its CSNs carry {@code #001#}), syncprov writing the suffix's
     * contextCSN every 100 operations or 10 minutes, keeping the last {@code sessionLog} changes for
     * delta refreshes (older cookies get a present phase), and the entryUUID/entryCSN indexes
     * syncprov searches by.
     */
    static String provider(Path dir, String rootDn, String password, int sessionLog) {
        return common(dir, true, "serverID " + PROVIDER_SERVER_ID + "\n", rootDn, password)
                + "index entryUUID,entryCSN eq\n"
                + "overlay syncprov\n"
                + "syncprov-checkpoint 100 10\n"
                + "syncprov-sessionlog " + sessionLog + "\n";
    }

    /**
     * A consumer with an empty database. Its entryUUID index is not optional in practice: syncrepl
     * looks every received entry up by entryUUID, and without the index each lookup scans the
     * database.
     */
    static String consumer(Path dir, String rootDn, String password, Syncrepl syncrepl) {
        return common(dir, false, "", rootDn, password) + "index entryUUID,entryCSN eq\n" + syncrepl.stanza(SUFFIX);
    }

    /**
     * A member of a multi-provider set that starts empty: server ID {@code serverId} (its CSNs carry
     * it, its cookies name it), a syncrepl consumer of the other member as {@code syncrepl} says, then
     * {@code multiprovider on} (slapd 2.5's name for 2.4's mirrormode; it must follow the syncrepl
     * stanza) and syncprov serving its changes, and those it received, to the other member.
     */
    static String multiProvider(
            Path dir, String rootDn, String password, int serverId, Syncrepl syncrepl, int sessionLog) {
        return common(dir, true, "serverID " + serverId + "\n", rootDn, password)
                + "index entryUUID,entryCSN eq\n"
                + syncrepl.stanza(SUFFIX)
                + "multiprovider on\n"
                + "overlay syncprov\n"
                + "syncprov-checkpoint 100 10\n"
                + "syncprov-sessionlog " + sessionLog + "\n";
    }

    private static String common(Path dir, boolean syncprov, String global, String rootDn, String password) {
        StringBuilder conf = new StringBuilder();
        for (String schema : new String[] {"core", "cosine", "inetorgperson", "nis"}) {
            conf.append("include ")
                    .append(SCHEMA_DIR)
                    .append('/')
                    .append(schema)
                    .append(".schema\n");
        }
        // Debian builds back-mdb and syncprov as modules; a source build may link them in.
        boolean mdbModule = Files.exists(MODULE_DIR.resolve("back_mdb.la"));
        boolean syncprovModule = Files.exists(MODULE_DIR.resolve("syncprov.la"));
        if (mdbModule || (syncprov && syncprovModule)) {
            conf.append("modulepath ").append(MODULE_DIR).append('\n');
        }
        if (mdbModule) {
            conf.append("moduleload back_mdb\n");
        }
        if (syncprov && syncprovModule) {
            conf.append("moduleload syncprov\n");
        }
        return conf.append("pidfile ")
                .append(dir.resolve("slapd.pid"))
                .append('\n')
                .append("argsfile ")
                .append(dir.resolve("slapd.args"))
                .append('\n')
                .append("loglevel 0\n")
                .append(global)
                .append("database mdb\n")
                .append("suffix \"")
                .append(SUFFIX)
                .append("\"\n")
                .append("rootdn \"")
                .append(rootDn)
                .append("\"\n")
                .append("rootpw \"")
                .append(password)
                .append("\"\n")
                .append("directory ")
                .append(dir.resolve("db"))
                .append('\n')
                .append("maxsize 1073741824\n")
                .append("dbnosync\n")
                .append("index objectClass eq\n")
                .toString();
    }
}
