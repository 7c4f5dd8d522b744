package dev.larch.server.directory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import dev.larch.server.entry.EntryCodec;
import dev.larch.server.store.DnTree;
import dev.larch.server.store.ReadTxn;

/**
 * The DNs and parent IDs of parent entries, rebuilt from the parent chain (entries store their RDN,
 * not their DN: {@link EntryCodec}) and cached, so that loading an entry costs its own read plus a
 * map lookup for its parent's DN, and a subtree scope check climbs cached parents instead of
 * reading each ancestor from the store.
 *
 * <p>Only entries asked for as parents go in (the parent of an entry read, an ancestor of a
 * candidate): a store of a million people under a few organizational units caches a handful of DNs.
 * The cache is bounded in estimated bytes ({@link #maxBytes()}); when an insert would pass the
 * bound, the cache is emptied first and refills from the store, so a client that creates many
 * entries with children can make it work harder, never grow.
 *
 * <p>Consistency under LMDB's snapshots: a DN changes only by a modify DN, and every modify DN bumps
 * the rename count stored in the store ({@link ReadTxn#renameGeneration()}). The cache holds the
 * nodes of one generation; a transaction uses it only when its own snapshot's count equals that
 * generation, and a transaction of a newer generation replaces it with an empty one. So a reader
 * that began before a rename never sees a DN from after it, nor the reverse: an older reader just
 * walks the chain in its own snapshot without the cache. A write transaction that renamed something
 * uses no cache until it commits.
 *
 * <p>Thread-safe: lookups take no lock; inserts serialize on the generation, so its byte count is
 * exact.
 */
final class ParentChain {
    /** Estimated bytes a cached node takes beside its DN: map node, boxed key, record, string header. */
    static final int BYTES_PER_NODE = 160;
    /** Estimated bytes per char of a cached DN. */
    static final int BYTES_PER_CHAR = 2;
    /** The default bound: about 40,000 parents of 60-character DNs. */
    static final long DEFAULT_MAX_BYTES = 12L << 20;
    /** Hops up a chain after which a walk also checks for a loop, which only a damaged store has. */
    private static final int HOPS_BEFORE_LOOP_CHECK = 256;

    /**
     * What the cache knows of one parent entry.
     *
     * @param dn its full DN, user form, as its stored RDNs spell it
     */
    record Node(long id, long parentId, String dn) {}

    private final long maxBytes;
    private final AtomicReference<Generation> current = new AtomicReference<>(new Generation(-1));

    /** @param maxBytes the estimated-size bound; 0 caches nothing */
    ParentChain(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes < 0: " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /**
     * The DN of the entry {@code id} as {@code txn} sees it, or null when there is no such entry. Call
     * it for entries that have children (parents): they are the ones it caches. It may read entries
     * from the store, which moves the buffer the transaction's last read returned.
     *
     * @throws IllegalStateException when the parent chain is damaged (a parent missing, a loop)
     */
    String dn(ReadTxn txn, long id) {
        Node node = node(txn, id);
        return node == null ? null : node.dn();
    }

    /**
     * The DN of the entry {@code id} if the cache holds it for {@code txn}'s snapshot, else null;
     * never reads the store (so a buffer the caller holds from its last read stays valid).
     */
    String cached(ReadTxn txn, long id) {
        Generation generation = generationFor(txn.renameGeneration());
        Node node = generation == null ? null : generation.get(id);
        return node == null ? null : node.dn();
    }

    /**
     * Whether the entry {@code id} is {@code ancestorId} or lies below it, as {@code txn} sees the
     * tree: the entry's own record is read for its parent, the ancestors above come from the cache.
     * An absent entry lies below nothing.
     */
    boolean isWithin(ReadTxn txn, long id, long ancestorId) {
        if (id == ancestorId) {
            return true;
        }
        ByteBuffer bytes = txn.entry(id);
        if (bytes == null) {
            return false;
        }
        long parent = EntryCodec.parentId(bytes);
        while (parent != DnTree.NO_PARENT) {
            if (parent == ancestorId) {
                return true;
            }
            Node node = node(txn, parent);
            if (node == null) {
                return false;
            }
            parent = node.parentId();
        }
        return false;
    }

    /** The node of entry {@code id} in {@code txn}'s snapshot, or null when there is no such entry. */
    Node node(ReadTxn txn, long id) {
        Generation generation = generationFor(txn.renameGeneration());
        if (generation != null) {
            Node cached = generation.get(id);
            if (cached != null) {
                return cached;
            }
        }
        return walk(txn, id, generation);
    }

    /**
     * Reads the chain up from {@code id} until the root or a cached node, then builds the DNs down,
     * caching each node when {@code generation} is not null.
     */
    private Node walk(ReadTxn txn, long id, Generation generation) {
        List<long[]> ids = new ArrayList<>(4);
        List<String> names = new ArrayList<>(4);
        Set<Long> seen = null;
        Node above = null;
        long currentId = id;
        while (true) {
            ByteBuffer bytes = txn.entry(currentId);
            if (bytes == null) {
                if (ids.isEmpty()) {
                    return null;
                }
                throw new IllegalStateException("entry " + ids.get(ids.size() - 1)[0] + " names parent " + currentId
                        + ", which does not exist");
            }
            long parentId = EntryCodec.parentId(bytes);
            ids.add(new long[] {currentId, parentId});
            names.add(EntryCodec.name(bytes));
            if (parentId == DnTree.NO_PARENT) {
                break;
            }
            above = generation == null ? null : generation.get(parentId);
            if (above != null) {
                break;
            }
            if (ids.size() > HOPS_BEFORE_LOOP_CHECK) {
                if (seen == null) {
                    seen = new HashSet<>();
                    for (long[] pair : ids) {
                        seen.add(pair[0]);
                    }
                }
                if (!seen.add(parentId)) {
                    throw new IllegalStateException("the parent chain of entry " + id + " loops at entry " + parentId);
                }
            }
            currentId = parentId;
        }
        for (int i = ids.size() - 1; i >= 0; i--) {
            long[] pair = ids.get(i);
            Node node =
                    new Node(pair[0], pair[1], EntryCodec.composeDn(names.get(i), above == null ? null : above.dn()));
            if (generation != null) {
                put(generation, node);
            }
            above = node;
        }
        return above;
    }

    /**
     * The generation a transaction of rename count {@code renames} may use, installing a fresh one
     * when it is newer than the cache's; null when it may use none (an older reader, a renaming
     * writer, a disabled cache).
     */
    private Generation generationFor(long renames) {
        if (renames < 0 || maxBytes == 0) {
            return null;
        }
        while (true) {
            Generation generation = current.get();
            if (generation.number == renames) {
                return generation;
            }
            if (generation.number > renames) {
                return null;
            }
            Generation fresh = new Generation(renames);
            if (current.compareAndSet(generation, fresh)) {
                return fresh;
            }
        }
    }

    private void put(Generation generation, Node node) {
        long cost = estimatedBytes(node);
        if (cost > maxBytes) {
            return;
        }
        synchronized (generation) {
            if (generation.bytes + cost > maxBytes) {
                generation.nodes.clear();
                generation.bytes = 0;
            }
            if (generation.nodes.putIfAbsent(node.id(), node) == null) {
                generation.bytes += cost;
            }
        }
        generation.last = node;
    }

    static long estimatedBytes(Node node) {
        return BYTES_PER_NODE + (long) BYTES_PER_CHAR * node.dn().length();
    }

    /** The estimated bytes the current generation's nodes take; never above {@link #maxBytes()}. */
    long estimatedBytes() {
        Generation generation = current.get();
        synchronized (generation) {
            return generation.bytes;
        }
    }

    /** Nodes cached in the current generation. */
    int size() {
        return current.get().nodes.size();
    }

    /** The rename count the cache is filled at; -1 before the first use. */
    long generation() {
        return current.get().number;
    }

    long maxBytes() {
        return maxBytes;
    }

    /** The nodes valid at one rename count. */
    private static final class Generation {
        final long number;
        final ConcurrentHashMap<Long, Node> nodes = new ConcurrentHashMap<>();
        /** Guarded by this generation. */
        long bytes;
        /**
         * The node looked up or added last: consecutive entries of a scan mostly share their parent,
         * and this answers them without a map lookup (or a boxed key).
         */
        volatile Node last;

        Generation(long number) {
            this.number = number;
        }

        Node get(long id) {
            Node recent = last;
            if (recent != null && recent.id() == id) {
                return recent;
            }
            Node found = nodes.get(id);
            if (found != null) {
                last = found;
            }
            return found;
        }
    }
}
