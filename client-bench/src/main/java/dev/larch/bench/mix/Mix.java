package dev.larch.bench.mix;

import java.util.List;

/**
 * A validated workload: operations whose shares add up to 100, and a connection model.
 *
 * @param name the mix name (from the file)
 * @param description free text
 * @param source where it came from ("built-in:addressing" or a path)
 * @param sha256 hex SHA-256 of the file's bytes, recorded with every result
 * @param connection the connection model
 * @param operations operations in file order
 */
public record Mix(
        String name,
        String description,
        String source,
        String sha256,
        ConnectionModel connection,
        List<OperationSpec> operations) {}
