package dev.larch.bench.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;

import dev.larch.bench.gen.SplitMix64;

/**
 * Streams an LDIF file once and keeps a uniform random sample of its people and groups
 * (reservoir sampling, seeded), so request values come from the data actually loaded without
 * holding the data set in memory.
 *
 * <p>Understands content LDIF as {@code ./larch gen}, slapcat and ldapsearch write it: folded
 * lines, comments, {@code ::} base64 values and attribute options. A person is an entry with
 * objectClass person, organizationalPerson or inetOrgPerson; a group a groupOfNames or
 * groupOfUniqueNames with at least one member. Not thread-safe; use once.
 */
public final class LdifSampler {
    public static final int DEFAULT_PEOPLE = 20_000;
    public static final int DEFAULT_GROUPS = 5_000;

    private final int peopleCapacity;
    private final int groupCapacity;
    private final SplitMix64 rng;

    private final String[][] columns;
    private final long[] peopleWith = new long[DataSample.COLUMNS.length];
    private final String[] groupDns;
    private long entries;
    private long people;
    private long groups;
    private String suffix;

    // The entry being read.
    private final String[] current = new String[DataSample.COLUMNS.length];
    private boolean isPerson;
    private boolean isGroup;
    private boolean hasMember;

    public LdifSampler(int peopleCapacity, int groupCapacity, long seed) {
        this.peopleCapacity = peopleCapacity;
        this.groupCapacity = groupCapacity;
        this.rng = new SplitMix64(seed);
        this.columns = new String[DataSample.COLUMNS.length][peopleCapacity];
        this.groupDns = new String[groupCapacity];
    }

    /**
     * Reads {@code file} and returns the sample.
     *
     * @throws IllegalArgumentException if the file is missing, unreadable or holds no entries
     */
    public DataSample sample(Path file) {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8), 1 << 16)) {
            String logical = null;
            long lineNo = 0;
            for (String line = in.readLine(); ; line = in.readLine()) {
                lineNo++;
                if (line != null && line.startsWith(" ") && logical != null) {
                    logical = logical + line.substring(1); // folded continuation (RFC 2849)
                    continue;
                }
                if (logical != null) {
                    attribute(logical, lineNo);
                    logical = null;
                }
                if (line == null) {
                    endEntry();
                    break;
                }
                if (line.isEmpty()) {
                    endEntry();
                } else if (!line.startsWith("#")) {
                    logical = line;
                }
            }
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("data file not found: " + file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read data file " + file + ": " + e.getMessage());
        }
        if (entries == 0) {
            throw new IllegalArgumentException("data file " + file + " holds no LDIF entries");
        }
        int sampledPeople = (int) Math.min(people, peopleCapacity);
        String[][] trimmed = new String[columns.length][];
        for (int c = 0; c < columns.length; c++) {
            trimmed[c] = Arrays.copyOf(columns[c], sampledPeople);
        }
        return new DataSample(
                file.toString(),
                suffix,
                entries,
                people,
                groups,
                peopleWith.clone(),
                trimmed,
                sampledPeople,
                Arrays.copyOf(groupDns, (int) Math.min(groups, groupCapacity)));
    }

    private void attribute(String line, long lineNo) {
        int colon = line.indexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("data file is not LDIF: line " + (lineNo - 1) + " has no 'attribute:'");
        }
        String name = line.substring(0, colon);
        int semicolon = name.indexOf(';');
        if (semicolon > 0) {
            name = name.substring(0, semicolon);
        }
        name = name.toLowerCase(Locale.ROOT);
        int column = switch (name) {
            case "dn" -> DataSample.DN;
            case "cn" -> DataSample.CN;
            case "sn", "surname" -> DataSample.SN;
            case "givenname", "gn" -> DataSample.GIVEN;
            case "mail" -> DataSample.MAIL;
            case "uid" -> DataSample.UID;
            case "objectclass", "member", "uniquemember" -> -1;
            default -> -2;
        };
        if (column == -2 || (column >= 0 && current[column] != null)) {
            return; // not needed, or a second value: the first one is enough to search by
        }
        String value = value(line, colon);
        if (column >= 0) {
            current[column] = value;
        } else if (name.equals("objectclass")) {
            String oc = value.toLowerCase(Locale.ROOT);
            isPerson |= oc.equals("person") || oc.equals("organizationalperson") || oc.equals("inetorgperson");
            isGroup |= oc.equals("groupofnames") || oc.equals("groupofuniquenames");
        } else {
            hasMember |= !value.isEmpty();
        }
    }

    private static String value(String line, int colon) {
        if (colon + 1 < line.length() && line.charAt(colon + 1) == ':') {
            byte[] raw =
                    Base64.getMimeDecoder().decode(line.substring(colon + 2).trim());
            return new String(raw, StandardCharsets.UTF_8);
        }
        if (colon + 1 < line.length() && line.charAt(colon + 1) == '<') {
            return ""; // URL-referenced values are not followed
        }
        return line.substring(colon + 1).strip();
    }

    private void endEntry() {
        String dn = current[DataSample.DN];
        if (dn != null) {
            entries++;
            if (suffix == null) {
                suffix = dn;
            }
            if (isPerson) {
                keepPerson();
            } else if (isGroup && hasMember) {
                long slot = groups < groupCapacity ? groups : (long) (rng.nextDouble() * (groups + 1));
                if (slot < groupCapacity) {
                    groupDns[(int) slot] = dn;
                }
                groups++;
            }
        }
        Arrays.fill(current, null);
        isPerson = false;
        isGroup = false;
        hasMember = false;
    }

    private void keepPerson() {
        for (int c = 0; c < current.length; c++) {
            if (current[c] != null) {
                peopleWith[c]++;
            }
        }
        // Algorithm R: the n-th person replaces a random slot with probability capacity / n.
        long slot = people < peopleCapacity ? people : (long) (rng.nextDouble() * (people + 1));
        if (slot < peopleCapacity) {
            for (int c = 0; c < current.length; c++) {
                columns[c][(int) slot] = current[c];
            }
        }
        people++;
    }
}
