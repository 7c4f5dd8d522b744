/**
 * Read operations: search (planned by {@code search}, streamed while the connection is writable,
 * bounded by {@link dev.larch.server.read.SearchLimits}) and compare, plus the virtual entries
 * (root DSE, subschema subentry) answered from memory.
 */
package dev.larch.server.read;
