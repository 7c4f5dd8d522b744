package dev.larch.server.search.sort;

/** What a sort request resolves to: the {@link SortOrder} to apply, or the {@link SortOrder.Refusal} of it. */
public sealed interface SortResolution permits SortOrder, SortOrder.Refusal {}
