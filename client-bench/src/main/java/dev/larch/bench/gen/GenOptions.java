package dev.larch.bench.gen;

/**
 * What to generate.
 *
 * @param people number of inetOrgPerson entries (groups, ous and the suffix entry come on top)
 * @param seed the seed; the same seed and size give the same bytes
 * @param suffix the naming context, e.g. {@code dc=example,dc=com}; its first RDN must be dc or o
 * @param nameSkew Zipf exponent of name frequency (0 = uniform)
 * @param groupSize people per {@code groupOfNames} (the last group takes the remainder)
 */
public record GenOptions(long people, long seed, String suffix, double nameSkew, int groupSize) {
    public static final String DEFAULT_SUFFIX = "dc=example,dc=com";
    public static final double DEFAULT_SKEW = 0.7;
    public static final int DEFAULT_GROUP_SIZE = 100;

    public GenOptions {
        if (people < 1) {
            throw new IllegalArgumentException("--entries must be at least 1");
        }
        if (groupSize < 1) {
            throw new IllegalArgumentException("group size must be at least 1");
        }
        if (nameSkew < 0 || Double.isNaN(nameSkew) || nameSkew > 3) {
            throw new IllegalArgumentException("name skew must be between 0 and 3");
        }
    }
}
