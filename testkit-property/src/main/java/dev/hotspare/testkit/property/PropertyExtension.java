package dev.hotspare.testkit.property;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

import java.lang.reflect.Method;

/**
 * Makes a {@link Property} test's tries and seed the defaults of the {@link PropertyCheck}s it runs (on the test's
 * thread, for the duration of the test). Registered by {@link Property}; not used directly.
 */
public final class PropertyExtension implements InvocationInterceptor {

    private static final ThreadLocal<Property> CURRENT = new ThreadLocal<>();

    /** Creates the extension (JUnit does). */
    public PropertyExtension() {
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
                                    ExtensionContext extensionContext) throws Throwable {
        Property property = invocationContext.getExecutable().getAnnotation(Property.class);
        Property previous = CURRENT.get();
        CURRENT.set(property);
        try {
            invocation.proceed();
        } finally {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        }
    }

    /** The annotation of the property test running on this thread, or null outside one. */
    static Property current() {
        return CURRENT.get();
    }
}
