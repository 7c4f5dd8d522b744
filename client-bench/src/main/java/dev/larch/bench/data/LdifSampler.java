package dev.larch.bench.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldif.LDIFAddChangeRecord;
import com.unboundid.ldif.LDIFChangeRecord;
import com.unboundid.ldif.LDIFException;
import com.unboundid.ldif.LDIFReader;
import com.unboundid.ldif.LDIFRecord;
import com.unboundid.ldif.TrailingSpaceBehavior;

/**
 * Streams an LDIF file once and keeps every person (DN and {@link DataSample#ATTRIBUTES}) and
 * every group with members (DN and full member list) in compact columns, so requests draw from the
 * whole data set and group reads can be checked against the file.
 *
 * <p>Reads LDIF (RFC 2849) with UnboundID's {@link LDIFReader}: folded lines, comments, the
 * version line, base64 values and attribute options as {@code ./larch gen}, slapcat and ldapsearch
 * write them; {@code changetype: add} records count as entries. Other change records are rejected:
 * the bench needs the entries the server holds, not edits to them. A person is an entry with
 * objectClass person, organizationalPerson or inetOrgPerson; a group a groupOfNames or
 * groupOfUniqueNames with at least one member. Not thread-safe; use once.
 */
public final class LdifSampler {
    private final DnColumn personDns = new DnColumn();
    private final StringColumn[] columns = new StringColumn[DataSample.ATTRIBUTES.size()];
    private final long[] peopleWith = new long[DataSample.ATTRIBUTES.size()];
    private final DnColumn groupDns = new DnColumn();
    private final DnColumn members = new DnColumn();
    private int[] memberStart = new int[1 << 8];
    private final Map<String, Long> peopleWithAttribute = new HashMap<>();
    private long entries;
    private String suffix;

    public LdifSampler() {
        for (int c = 0; c < columns.length; c++) {
            columns[c] = new StringColumn();
        }
    }

    /**
     * Reads {@code file} and returns its people and groups, drawn uniformly until {@link
     * DataSample#withKeySkew} says otherwise.
     *
     * @throws IllegalArgumentException if the file is missing, unreadable, not LDIF (the message
     *     names the file and the line) or holds no entries
     */
    public DataSample sample(Path file) {
        // No parse threads: on two cores they made 100,000 entries slower to sample, not faster.
        try (LDIFReader in = new LDIFReader(Files.newInputStream(file))) {
            // Trailing spaces are an editing accident, not part of a name to search for.
            in.setTrailingSpaceBehavior(TrailingSpaceBehavior.STRIP);
            for (LDIFRecord record = in.readLDIFRecord(); record != null; record = in.readLDIFRecord()) {
                add(EntryFields.of(entryOf(record, file)));
            }
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("data file not found: " + file, e);
        } catch (LDIFException e) {
            throw new IllegalArgumentException(
                    "data file " + file + " is not valid LDIF near line " + e.getLineNumber() + ": " + e.getMessage(),
                    e);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read data file " + file + ": " + e.getMessage(), e);
        }
        if (entries == 0) {
            throw new IllegalArgumentException("data file " + file + " holds no LDIF entries");
        }
        return result(file);
    }

    private static Entry entryOf(LDIFRecord record, Path file) {
        if (record instanceof Entry entry) {
            return entry;
        }
        if (record instanceof LDIFAddChangeRecord add) {
            return add.getEntryToAdd();
        }
        LDIFChangeRecord change = (LDIFChangeRecord) record;
        throw new IllegalArgumentException("data file " + file + " holds a '"
                + change.getChangeType().getName() + "' change record for '" + change.getDN()
                + "'; the bench samples entries (content LDIF or changetype: add)");
    }

    private void add(EntryFields entry) {
        entries++;
        if (suffix == null) {
            suffix = entry.dn();
        }
        if (entry.isPerson()) {
            personDns.add(entry.dn());
            for (String name : entry.attributeNames()) {
                peopleWithAttribute.merge(name, 1L, Long::sum);
            }
            String[] values = entry.columns();
            for (int c = 0; c < values.length; c++) {
                columns[c].add(values[c]);
                if (values[c] != null && !values[c].isEmpty()) {
                    peopleWith[c]++;
                }
            }
        } else if (entry.isGroupWithMembers()) {
            int g = groupDns.add(entry.dn());
            if (g + 1 >= memberStart.length) {
                memberStart = Arrays.copyOf(memberStart, memberStart.length * 2);
            }
            for (String member : entry.members()) {
                members.add(member);
            }
            memberStart[g + 1] = members.size();
        }
    }

    private DataSample result(Path file) {
        personDns.trim();
        for (StringColumn c : columns) {
            c.trim();
        }
        groupDns.trim();
        members.trim();
        return new DataSample(new DataSample.Store(
                file.toString(),
                suffix,
                entries,
                personDns,
                columns,
                peopleWith.clone(),
                groupDns,
                members,
                Arrays.copyOf(memberStart, groupDns.size() + 1),
                universal()));
    }

    /** Attributes (lower-case base names) every person holds: an answer about a person may be required to show them. */
    private Set<String> universal() {
        Set<String> all = new HashSet<>();
        peopleWithAttribute.forEach((name, n) -> {
            if (n == personDns.size()) {
                all.add(name);
            }
        });
        return Set.copyOf(all);
    }
}
