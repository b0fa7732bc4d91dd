// Empty on purpose: the declarations of the stub IOKit.ps are Swift, in IOKit.swift (see module.modulemap).
