package dev.larch.bench.mix;

/**
 * How a worker uses connections.
 *
 * @param perLookup false: one connection per thread for the whole run, bound once; true: a fresh
 *     connection per lookup session (connect, bind, {@code minOps..maxOps} operations, unbind), as
 *     desktop address books did
 * @param minOps fewest operations per session (per-lookup only)
 * @param maxOps most operations per session (per-lookup only)
 */
public record ConnectionModel(boolean perLookup, int minOps, int maxOps) {
    public static final ConnectionModel PERSISTENT = new ConnectionModel(false, 1, 1);

    public String label() {
        return perLookup ? "per-lookup (" + minOps + "-" + maxOps + " operations per connection)" : "persistent";
    }
}
