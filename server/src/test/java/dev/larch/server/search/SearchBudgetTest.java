package dev.larch.server.search;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import dev.larch.server.error.ResultCodeException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shared budget of one search: look-through counters, deadline and abandon. */
class SearchBudgetTest {
    private final AtomicLong clock = new AtomicLong(1_000);
    private final AtomicBoolean abandoned = new AtomicBoolean();

    private SearchBudget budget(long lookThroughLimit) {
        return new SearchBudget(lookThroughLimit, 0, null, abandoned::get, clock::get);
    }

    private SearchBudget budgetWithDeadline(long deadlineNanos) {
        return new SearchBudget(0, deadlineNanos, "time limit of 1 seconds exceeded", abandoned::get, clock::get);
    }

    @Test
    void examiningPastTheLookThroughLimitIsAdminLimitExceededNamingTheKey() {
        SearchBudget budget = budget(3);
        for (int i = 0; i < 3; i++) {
            budget.examine();
        }
        ResultCodeException e = assertThrows(ResultCodeException.class, budget::examine);
        assertEquals(ResultCodeEnum.ADMIN_LIMIT_EXCEEDED, e.code());
        assertTrue(e.getMessage().contains("(limits.look-through-limit)"), e.getMessage());
    }

    @Test
    void aSpentBudgetFailsEveryLaterStepTheSameWay() {
        SearchBudget budget = budget(1);
        budget.examine();
        ResultCodeException first = assertThrows(ResultCodeException.class, budget::examine);
        assertSame(first, assertThrows(ResultCodeException.class, budget::step));
        assertSame(first, assertThrows(ResultCodeException.class, () -> budget.beforeIndexRead(0)));
    }

    @Test
    void noLimitMeansNoLimit() {
        SearchBudget budget = budget(0);
        for (int i = 0; i < 10_000; i++) {
            budget.examine();
            budget.indexRead(1_000, 0);
        }
        assertEquals(10_000, budget.examined());
    }

    @Test
    void oneIndexReadUpToTheIndexEntryLimitFitsEvenAboveTheLookThroughLimit() {
        SearchBudget budget = budget(100);
        budget.beforeIndexRead(50_000);
        assertDoesNotThrow(() -> budget.indexRead(50_000, 50_000));
        // Index IDs are counted apart: the candidates they name may still be examined.
        for (int i = 0; i < 100; i++) {
            budget.examine();
        }
        ResultCodeException e = assertThrows(ResultCodeException.class, () -> budget.beforeIndexRead(50_000));
        assertEquals(ResultCodeEnum.ADMIN_LIMIT_EXCEEDED, e.code());
        assertTrue(e.getMessage().contains("(limits.look-through-limit)"), e.getMessage());
    }

    @Test
    void everyIndexReadCostsAtLeastOneSoEmptyTermsAddUp() {
        SearchBudget budget = budget(10);
        for (int i = 0; i < 10; i++) {
            budget.beforeIndexRead(5);
            budget.indexRead(0, 5);
        }
        assertEquals(10, budget.indexIdsRead());
        assertThrows(ResultCodeException.class, () -> budget.beforeIndexRead(5));
    }

    @Test
    void anIndexReadThatOverrunsTheShareFailsAfterItIsCounted() {
        SearchBudget budget = budget(10);
        budget.indexRead(8, 5);
        ResultCodeException e = assertThrows(ResultCodeException.class, () -> budget.indexRead(3, 5));
        assertEquals(ResultCodeEnum.ADMIN_LIMIT_EXCEEDED, e.code());
    }

    @Test
    void theDeadlineIsTimeLimitExceededWithTheGivenMessage() {
        SearchBudget budget = budgetWithDeadline(2_000);
        budget.step();
        clock.set(1_999);
        budget.examine();
        clock.set(2_000);
        ResultCodeException e = assertThrows(ResultCodeException.class, budget::step);
        assertEquals(ResultCodeEnum.TIME_LIMIT_EXCEEDED, e.code());
        assertEquals("time limit of 1 seconds exceeded", e.getMessage());
    }

    @Test
    void theDeadlineHoldsAcrossTheWrapOfNanoTime() {
        clock.set(Long.MAX_VALUE - 10);
        SearchBudget budget = budgetWithDeadline(Long.MAX_VALUE + 10);
        budget.step();
        clock.set(Long.MIN_VALUE + 8); // one nanosecond before the deadline, past the wrap
        budget.step();
        clock.set(Long.MIN_VALUE + 9);
        assertEquals(
                ResultCodeEnum.TIME_LIMIT_EXCEEDED,
                assertThrows(ResultCodeException.class, budget::step).code());
    }

    @Test
    void abandonIsCanceledAtTheNextStep() {
        SearchBudget budget = budget(0);
        budget.step();
        abandoned.set(true);
        assertEquals(
                ResultCodeEnum.CANCELED,
                assertThrows(ResultCodeException.class, budget::examine).code());
    }
}
