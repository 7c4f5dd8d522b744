package dev.larch.e2e.sync;

import java.time.Duration;
import java.util.Locale;

/**
 * A consumer's {@code syncrepl} stanza, as OpenLDAP's own test suite writes it
 * ({@code tests/data/slapd-syncrepl-consumer-persist1.conf}): the whole suffix, every user and
 * operational attribute ({@code attrs="*,+"}, so the stamps are replicated), no schema checking (the
 * operational attributes are written as received), retrying every second forever.
 *
 * @param rid the replica ID, 1..999, echoed in the cookies
 * @param provider where to replicate from, bound as its {@link LdapEndpoint#bindDn()}
 * @param interval for refreshOnly, the pause between refreshes; null for refreshAndPersist
 */
public record Syncrepl(int rid, LdapEndpoint provider, Duration interval) {
    public Syncrepl {
        if (rid < 1 || rid > 999) {
            throw new IllegalArgumentException("rid must be 1..999: " + rid);
        }
    }

    /** One long search: a refresh, then every later change as it commits. */
    public static Syncrepl refreshAndPersist(int rid, LdapEndpoint provider) {
        return new Syncrepl(rid, provider, null);
    }

    /** A refresh, then another one {@code interval} after each one ends. */
    public static Syncrepl refreshOnly(int rid, LdapEndpoint provider, Duration interval) {
        return new Syncrepl(rid, provider, interval);
    }

    String type() {
        return interval == null ? "refreshAndPersist" : "refreshOnly";
    }

    /** The stanza for slapd.conf, continuation lines indented. */
    String stanza(String searchBase) {
        StringBuilder s = new StringBuilder()
                .append(String.format(Locale.ROOT, "syncrepl rid=%03d%n", rid))
                .append("\tprovider=")
                .append(provider.url())
                .append('\n')
                .append("\tbindmethod=simple\n")
                .append("\tbinddn=\"")
                .append(provider.bindDn())
                .append("\"\n")
                .append("\tcredentials=\"")
                .append(provider.password())
                .append("\"\n")
                .append("\tsearchbase=\"")
                .append(searchBase)
                .append("\"\n")
                .append("\tfilter=\"(objectClass=*)\"\n")
                .append("\tscope=sub\n")
                .append("\tattrs=\"*,+\"\n")
                .append("\tschemachecking=off\n")
                .append("\ttype=")
                .append(type())
                .append('\n');
        if (interval != null) {
            long seconds = Math.max(1, interval.toSeconds());
            s.append(String.format(
                    Locale.ROOT,
                    "\tinterval=%02d:%02d:%02d:%02d%n",
                    seconds / 86_400,
                    seconds / 3_600 % 24,
                    seconds / 60 % 60,
                    seconds % 60));
        }
        return s.append("\tretry=\"1 +\"\n").toString();
    }
}
