"""What every feature of the web layer shares and no feature owns: ids and tokens, the store's
error, the clock and the languages we speak. It imports no feature package."""
