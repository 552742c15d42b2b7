package dev.hotspare.fleet.spi;

import java.util.NoSuchElementException;

/** No scheduler of this name exists (Maestro's 404 on scheduler routes). */
public final class SchedulerNotFoundException extends NoSuchElementException {

    private final String scheduler;

    public SchedulerNotFoundException(String scheduler) {
        super("scheduler: bad value '" + scheduler + "': no scheduler of this name exists");
        this.scheduler = scheduler;
    }

    /**
     * The name that was not found.
     */
    public String scheduler() {
        return scheduler;
    }
}
