"""The game in words: cards, contracts, variants and house rules (with their labels and help),
every code's sentence, the card picker's data, the form fields that read what people type.
Imports no feature (the `web` import contract); the features register their own codes'
sentences here (`messages.register`)."""
