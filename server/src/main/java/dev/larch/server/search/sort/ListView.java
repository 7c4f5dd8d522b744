package dev.larch.server.search.sort;

import org.apache.directory.api.ldap.extras.controls.vlv.VirtualListViewRequest;
import org.apache.directory.api.ldap.extras.controls.vlv.VirtualListViewResponseImpl;
import org.apache.directory.api.ldap.extras.controls.vlv.VirtualListViewResultCode;

/**
 * A virtual list view request (draft-ietf-ldapext-ldapv3-vlv-09) over a sorted result: which slice
 * of the sorted entries to return, around a target chosen by offset or by assertion value, and the
 * response control that says where the target fell.
 *
 * <p>Positions are 1-based as in the draft. By offset, a client's content count of 0 means the offset
 * is the position itself; otherwise the offset is scaled from the client's idea of the list length to
 * the real one (section 6.1). By value, the target is the first entry whose first sort key is at or
 * after the value under that key's ordering rule. A target past the end is the position after the
 * last entry, so only the entries before it come back.
 *
 * <p>Immutable once {@link #place placed}; used by one search.
 */
public final class ListView {
    private final VirtualListViewRequest request;
    private int contentCount;
    private int target;

    public ListView(VirtualListViewRequest request) {
        this.request = request;
    }

    /** Whether the view asks by assertion value (else by offset). */
    boolean byValue() {
        return request.hasAssertionValue();
    }

    byte[] assertionValue() {
        return request.getAssertionValue();
    }

    /**
     * Places the view on a sorted list of {@code size} entries.
     *
     * @param firstAtOrAfterValue for a view by value, the 0-based index of the first entry at or after
     *     the assertion value ({@code size} when none is); ignored by offset
     * @return false when the offset is out of range (offsetRangeError)
     */
    boolean place(int size, int firstAtOrAfterValue) {
        contentCount = size;
        if (byValue()) {
            target = firstAtOrAfterValue + 1;
            return true;
        }
        int offset = request.getOffset();
        int clientCount = request.getContentCount();
        if (offset < 1 || clientCount < 0) {
            return false;
        }
        if (clientCount == 0) {
            target = offset;
        } else if (offset >= clientCount) {
            target = size; // the client asked for the end of its list
        } else {
            target = (int) Math.round((double) (offset - 1) * size / clientCount) + 1;
        }
        target = Math.max(1, Math.min(target, size + 1));
        return true;
    }

    /** The 0-based index of the first entry of the slice. */
    int firstIndex() {
        return Math.max(0, target - 1 - Math.max(0, request.getBeforeCount()));
    }

    /** The 0-based index after the last entry of the slice. */
    int endIndex() {
        long end = (long) target + Math.max(0, request.getAfterCount());
        return (int) Math.min(contentCount, end);
    }

    /** The response control (draft section 6.2). */
    public VirtualListViewResponseImpl response(VirtualListViewResultCode code) {
        VirtualListViewResponseImpl control = new VirtualListViewResponseImpl();
        control.setTargetPosition(code == VirtualListViewResultCode.SUCCESS ? target : 0);
        control.setContentCount(contentCount);
        control.setVirtualListViewResult(code);
        control.setContextId(request.getContextId());
        return control;
    }
}
