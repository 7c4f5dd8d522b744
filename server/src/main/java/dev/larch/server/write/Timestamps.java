package dev.larch.server.write;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.UUID;

import dev.larch.server.error.ResultCodeException;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Stamps the operational attributes the server maintains on a new entry (RFC 4512 section 3.4, RFC
 * 4530); {@link ModifyStamps} stamps changed ones.
 */
final class Timestamps {
    private static final DateTimeFormatter GENERALIZED_TIME =
            DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'", Locale.ROOT);

    private Timestamps() {}

    /** The last second formatted; bulk loads stamp many entries within one second. */
    private static volatile Stamp last = new Stamp(-1, "");

    private record Stamp(long epochSecond, String text) {}

    static String now() {
        long second = System.currentTimeMillis() / 1000;
        Stamp s = last;
        if (s.epochSecond() != second) {
            s = new Stamp(second, format(second));
            last = s;
        }
        return s.text();
    }

    /** The generalized time (RFC 4517 section 3.3.13) of a second since the epoch, in UTC. */
    static String format(long epochSecond) {
        return ZonedDateTime.ofInstant(Instant.ofEpochSecond(epochSecond), ZoneOffset.UTC)
                .format(GENERALIZED_TIME);
    }

    /** Adds creation and modification stamps and an entryUUID, unless present (imported entries). */
    static void created(Entry entry, Dn by) {
        String now = now();
        String who = by.isEmpty() ? "" : by.getName();
        putIfAbsent(entry, "createTimestamp", now);
        putIfAbsent(entry, "modifyTimestamp", now);
        putIfAbsent(entry, "creatorsName", who);
        putIfAbsent(entry, "modifiersName", who);
        putIfAbsent(entry, "entryUUID", UUID.randomUUID().toString());
    }

    private static void putIfAbsent(Entry entry, String attribute, String value) {
        if (value.isEmpty() || entry.containsAttribute(attribute)) {
            return;
        }
        try {
            entry.add(attribute, value);
        } catch (LdapException e) {
            throw new ResultCodeException(ResultCodeEnum.OTHER, "cannot stamp " + attribute);
        }
    }
}
