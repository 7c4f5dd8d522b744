package dev.larch.server.maintenance;

/** A refusal of backup, restore or verify, with a message for the operator that names the problem. */
public final class MaintenanceException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MaintenanceException(String message) {
        super(message);
    }
}
