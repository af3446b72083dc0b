BEGIN TRANSACTION;
CREATE TABLE club_games (
	game_id VARCHAR(32) NOT NULL, 
	club_id VARCHAR(32) NOT NULL, 
	played_at DATETIME NOT NULL, 
	version INTEGER NOT NULL, 
	record JSON, 
	ratings JSON, 
	PRIMARY KEY (game_id), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	FOREIGN KEY(club_id) REFERENCES clubs (id) ON DELETE CASCADE
);
INSERT INTO "club_games" VALUES('Twc5v86BzDfXlgQn8GfHPQ','8F2nKkEMxHuQ3aV3KNupAQ','2026-12-04 18:05:33.841776',8,'{"variant": "contract", "high_wins": false, "finished": true, "seats": [["Ann", 35, 1, true, 7, 4, 35, 0, 20], ["Bo", 80, 2, false, 7, 2, 80, 0, 30], ["Cy", 115, 3, false, 7, 1, 115, 0, 40]]}','{"all": {"Ann": [27.869048680749426, 8.205243377397993], "Bo": [25.717262170187357, 8.058224222802378], "Cy": [21.413689149063217, 8.058224222802378]}, "variant": {"Ann": [27.869048680749426, 8.205243377397993], "Bo": [25.717262170187357, 8.058224222802378], "Cy": [21.413689149063217, 8.058224222802378]}}');
INSERT INTO "club_games" VALUES('KqJiM3LmXYTbwbl_zw_Uiw','8F2nKkEMxHuQ3aV3KNupAQ','2026-12-04 18:05:33.887647',8,'{"variant": "contract", "high_wins": false, "finished": true, "seats": [["Ann", 60, 1, true, 7, 2, 60, 0, 20], ["Bo", 60, 1, true, 7, 2, 60, 0, 20], ["Di", 70, 3, false, 7, 3, 70, 0, 30]]}','{"all": {"Ann": [28.422036520819564, 8.074055011842416], "Bo": [26.44073456518066, 7.94388878514421], "Di": [23.6559048891271, 8.205567007623737]}, "variant": {"Ann": [28.422036520819564, 8.074055011842416], "Bo": [26.44073456518066, 7.94388878514421], "Di": [23.6559048891271, 8.205567007623737]}}');
INSERT INTO "club_games" VALUES('4diBTgzUsw_YWmsxsFJTzA','8F2nKkEMxHuQ3aV3KNupAQ','2026-12-04 18:05:33.929998',3,'{"variant": "contract", "high_wins": false, "finished": false, "seats": [["Bo", 25, 3, false, 2, 1, 25, 0, 25], ["Cy", 10, 1, false, 2, 1, 10, 0, 10], ["Di", 20, 2, false, 2, 0, 20, 5, 15]]}','{"all": null, "variant": null}');
INSERT INTO "club_games" VALUES('CMWx2r217GwLUBKp1W0JLw','8F2nKkEMxHuQ3aV3KNupAQ','2026-12-04 18:05:33.945221',4,'{"variant": "rummy", "high_wins": true, "finished": true, "seats": [["Cy", 105, 1, true, 3, 2, 105, 65, 0], ["Di", 30, 2, false, 3, 1, 30, 30, 0]]}','{"all": {"Cy": [24.143785718516185, 7.812449984240798], "Di": [20.825067951016322, 7.941046494622919]}, "variant": {"Cy": [27.635389493140497, 8.06590141354368], "Di": [22.364610506859503, 8.06590141354368]}}');
INSERT INTO "club_games" VALUES('CFIjUjGfTCt1AAg6aHA_SA','8F2nKkEMxHuQ3aV3KNupAQ','2026-12-04 18:05:33.973037',2,'{"variant": "contract", "high_wins": false, "finished": false, "seats": [["Gus", 0, 1, false, 1, 1, 0, 0, 0], ["Ann", 10, 2, false, 1, 0, 10, 10, 10], ["Di", 20, 3, false, 1, 0, 20, 20, 20], ["Eli", 30, 4, false, 1, 0, 30, 30, 30]]}','{"all": null, "variant": null}');
INSERT INTO "club_games" VALUES('nxuk6rBpkmhK2NIu7w7LVA','8F2nKkEMxHuQ3aV3KNupAQ','2026-12-04 18:05:33.976190',1,'{"variant": "contract", "high_wins": false, "finished": false, "seats": [["Fay", 0, 1, false, 0, 0, 0, null, null], ["Hal", 0, 1, false, 0, 0, 0, null, null], ["Cy", 0, 1, false, 0, 0, 0, null, null], ["Bo", 0, 1, false, 0, 0, 0, null, null]]}','{"all": null, "variant": null}');
CREATE TABLE club_members (
	id INTEGER NOT NULL, 
	club_id VARCHAR(32) NOT NULL, 
	name VARCHAR(64) NOT NULL, 
	name_key VARCHAR(128) NOT NULL, 
	joined_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	CONSTRAINT uq_club_members_club_name UNIQUE (club_id, name_key), 
	FOREIGN KEY(club_id) REFERENCES clubs (id) ON DELETE CASCADE
);
INSERT INTO "club_members" VALUES(1,'8F2nKkEMxHuQ3aV3KNupAQ','Ann','ann','2026-12-04 18:05:33.842864');
INSERT INTO "club_members" VALUES(2,'8F2nKkEMxHuQ3aV3KNupAQ','Bo','bo','2026-12-04 18:05:33.842864');
INSERT INTO "club_members" VALUES(3,'8F2nKkEMxHuQ3aV3KNupAQ','Cy','cy','2026-12-04 18:05:33.842864');
INSERT INTO "club_members" VALUES(4,'8F2nKkEMxHuQ3aV3KNupAQ','Di','di','2026-12-04 18:05:33.888556');
INSERT INTO "club_members" VALUES(5,'8F2nKkEMxHuQ3aV3KNupAQ','Eli','eli','2026-12-04 18:05:33.969594');
INSERT INTO "club_members" VALUES(6,'8F2nKkEMxHuQ3aV3KNupAQ','Fay','fay','2026-12-04 18:05:33.969594');
INSERT INTO "club_members" VALUES(7,'8F2nKkEMxHuQ3aV3KNupAQ','Gus','gus','2026-12-04 18:05:33.969594');
INSERT INTO "club_members" VALUES(8,'8F2nKkEMxHuQ3aV3KNupAQ','Hal','hal','2026-12-04 18:05:33.969594');
CREATE TABLE clubs (
	id VARCHAR(32) NOT NULL, 
	edit_token_hash VARCHAR(64) NOT NULL, 
	name VARCHAR(64) NOT NULL, 
	lang VARCHAR(8) NOT NULL, 
	version INTEGER NOT NULL, 
	created_at DATETIME NOT NULL, 
	updated_at DATETIME NOT NULL, 
	board JSON, 
	board_games JSON, 
	board_key VARCHAR(64), 
	PRIMARY KEY (id)
);
INSERT INTO "clubs" VALUES('8F2nKkEMxHuQ3aV3KNupAQ','82f069c88973ec3a1f67d66fb2d93613198eb435959f29e795008e76a501d9d3','Thursday table','en',8,'2026-12-04 18:05:33.831034','2026-12-04 18:05:33.977106','{"views": {"": {"stats": [{"name": "Ann", "games": 3, "finished": 2, "wins": 2, "rounds": 15, "rounds_out": 6, "points": 105, "best": 0, "worst": 20, "longest_streak": 2}, {"name": "Bo", "games": 4, "finished": 2, "wins": 1, "rounds": 16, "rounds_out": 5, "points": 165, "best": 0, "worst": 30, "longest_streak": 1}, {"name": "Cy", "games": 4, "finished": 2, "wins": 1, "rounds": 12, "rounds_out": 4, "points": 230, "best": 0, "worst": 40, "longest_streak": 1}, {"name": "Di", "games": 4, "finished": 2, "wins": 0, "rounds": 13, "rounds_out": 4, "points": 140, "best": 0, "worst": 30, "longest_streak": 0}, {"name": "Gus", "games": 1, "finished": 0, "wins": 0, "rounds": 1, "rounds_out": 1, "points": 0, "best": 0, "worst": 0, "longest_streak": 0}, {"name": "Eli", "games": 1, "finished": 0, "wins": 0, "rounds": 1, "rounds_out": 0, "points": 30, "best": 30, "worst": 30, "longest_streak": 0}, {"name": "Fay", "games": 1, "finished": 0, "wins": 0, "rounds": 0, "rounds_out": 0, "points": 0, "best": null, "worst": null, "longest_streak": 0}, {"name": "Hal", "games": 1, "finished": 0, "wins": 0, "rounds": 0, "rounds_out": 0, "points": 0, "best": null, "worst": null, "longest_streak": 0}], "ratings": {"ann": [{"mu": 28.422036520819564, "sigma": 8.074055011842416}, 2], "bo": [{"mu": 26.44073456518066, "sigma": 7.94388878514421}, 2], "cy": [{"mu": 24.143785718516185, "sigma": 7.812449984240798}, 2], "di": [{"mu": 20.825067951016322, "sigma": 7.941046494622919}, 2]}, "nights": [["2026-12-04", {"ann": 4.1998714852923165, "bo": 2.6090682097480276, "cy": 0.7064357657937919, "di": -2.9980715328524354}]], "meetings": [{"player": "Ann", "opponent": "Bo", "meetings": {"ahead": 1, "behind": 0, "level": 1}}, {"player": "Ann", "opponent": "Cy", "meetings": {"ahead": 1, "behind": 0, "level": 0}}, {"player": "Bo", "opponent": "Ann", "meetings": {"ahead": 0, "behind": 1, "level": 1}}, {"player": "Bo", "opponent": "Cy", "meetings": {"ahead": 1, "behind": 0, "level": 0}}, {"player": "Cy", "opponent": "Ann", "meetings": {"ahead": 0, "behind": 1, "level": 0}}, {"player": "Cy", "opponent": "Bo", "meetings": {"ahead": 0, "behind": 1, "level": 0}}, {"player": "Ann", "opponent": "Di", "meetings": {"ahead": 1, "behind": 0, "level": 0}}, {"player": "Bo", "opponent": "Di", "meetings": {"ahead": 1, "behind": 0, "level": 0}}, {"player": "Di", "opponent": "Ann", "meetings": {"ahead": 0, "behind": 1, "level": 0}}, {"player": "Di", "opponent": "Bo", "meetings": {"ahead": 0, "behind": 1, "level": 0}}, {"player": "Cy", "opponent": "Di", "meetings": {"ahead": 1, "behind": 0, "level": 0}}, {"player": "Di", "opponent": "Cy", "meetings": {"ahead": 0, "behind": 1, "level": 0}}], "mixed": true, "count": 6, "recent": [{"game_id": "nxuk6rBpkmhK2NIu7w7LVA", "variant": "contract", "played_at": "2026-12-04T18:05:33.976190Z", "finished": false, "seats": [["Fay", false], ["Hal", false], ["Cy", false], ["Bo", false]], "rounds": 0}, {"game_id": "CFIjUjGfTCt1AAg6aHA_SA", "variant": "contract", "played_at": "2026-12-04T18:05:33.973037Z", "finished": false, "seats": [["Gus", false], ["Ann", false], ["Di", false], ["Eli", false]], "rounds": 1}, {"game_id": "CMWx2r217GwLUBKp1W0JLw", "variant": "rummy", "played_at": "2026-12-04T18:05:33.945221Z", "finished": true, "seats": [["Cy", true], ["Di", false]], "rounds": 3}, {"game_id": "4diBTgzUsw_YWmsxsFJTzA", "variant": "contract", "played_at": "2026-12-04T18:05:33.929998Z", "finished": false, "seats": [["Bo", false], ["Cy", false], ["Di", false]], "rounds": 2}, {"game_id": "KqJiM3LmXYTbwbl_zw_Uiw", "variant": "contract", "played_at": "2026-12-04T18:05:33.887647Z", "finished": true, "seats": [["Ann", true], ["Bo", true], ["Di", false]], "rounds": 7}, {"game_id": "Twc5v86BzDfXlgQn8GfHPQ", "variant": "contract", "played_at": "2026-12-04T18:05:33.841776Z", "finished": true, "seats": [["Ann", true], ["Bo", false], ["Cy", false]], "rounds": 7}]}, "contract": {"stats": [{"name": "Ann", "games": 3, "finished": 2, "wins": 2, "rounds": 15, "rounds_out": 6, "points": 105, "best": 0, "worst": 20, "longest_streak": 2}, {"name": "Bo", "games": 4, "finished": 2, "wins": 1, "rounds": 16, "rounds_out": 5, "points": 165, "best": 0, "worst": 30, "longest_streak": 1}, {"name": "Cy", "games": 3, "finished": 1, "wins": 0, "rounds": 9, "rounds_out": 2, "points": 125, "best": 0, "worst": 40, "longest_streak": 0}, {"name": "Di", "games": 3, "finished": 1, "wins": 0, "rounds": 10, "rounds_out": 3, "points": 110, "best": 0, "worst": 30, "longest_streak": 0}, {"name": "Gus", "games": 1, "finished": 0, "wins": 0, "rounds": 1, "rounds_out": 1, "points": 0, "best": 0, "worst": 0, "longest_streak": 0}, {"name": "Eli", "games": 1, "finished": 0, "wins": 0, "rounds": 1, "rounds_out": 0, "points": 30, "best": 30, "worst": 30, "longest_streak": 0}, {"name": "Fay", "games": 1, "finished": 0, "wins": 0, "rounds": 0, "rounds_out": 0, "points": 0, "best": null, "worst": null, "longest_streak": 0}, {"name": "Hal", "games": 1, "finished": 0, "wins": 0, "rounds": 0, "rounds_out": 0, "points": 0, "best": null, "worst": null, "longest_streak": 0}], "ratings": {"ann": [{"mu": 28.422036520819564, "sigma": 8.074055011842416}, 2], "bo": [{"mu": 26.44073456518066, "sigma": 7.94388878514421}, 2], "cy": [{"mu": 21.413689149063217, "sigma": 8.058224222802378}, 1], "di": [{"mu": 23.6559048891271, "sigma": 8.205567007623737}, 1]}, "nights": [["2026-12-04", {"ann": 4.1998714852923165, "bo": 2.6090682097480276, "cy": -2.7609835193439167, "di": -0.9607961337441111}]], "meetings": [{"player": "Ann", "opponent": "Bo", "meetings": {"ahead": 1, "behind": 0, "level": 1}}, {"player": "Ann", "opponent": "Cy", "meetings": {"ahead": 1, "behind": 0, "level": 0}}, {"player": "Bo", "opponent": "Ann", "meetings": {"ahead": 0, "behind": 1, "level": 1}}, {"player": "Bo", "opponent": "Cy", "meetings": {"ahead": 1, "behind": 0, "level": 0}}, {"player": "Cy", "opponent": "Ann", "meetings": {"ahead": 0, "behind": 1, "level": 0}}, {"player": "Cy", "opponent": "Bo", "meetings": {"ahead": 0, "behind": 1, "level": 0}}, {"player": "Ann", "opponent": "Di", "meetings": {"ahead": 1, "behind": 0, "level": 0}}, {"player": "Bo", "opponent": "Di", "meetings": {"ahead": 1, "behind": 0, "level": 0}}, {"player": "Di", "opponent": "Ann", "meetings": {"ahead": 0, "behind": 1, "level": 0}}, {"player": "Di", "opponent": "Bo", "meetings": {"ahead": 0, "behind": 1, "level": 0}}], "mixed": false, "count": 5, "recent": [{"game_id": "nxuk6rBpkmhK2NIu7w7LVA", "variant": "contract", "played_at": "2026-12-04T18:05:33.976190Z", "finished": false, "seats": [["Fay", false], ["Hal", false], ["Cy", false], ["Bo", false]], "rounds": 0}, {"game_id": "CFIjUjGfTCt1AAg6aHA_SA", "variant": "contract", "played_at": "2026-12-04T18:05:33.973037Z", "finished": false, "seats": [["Gus", false], ["Ann", false], ["Di", false], ["Eli", false]], "rounds": 1}, {"game_id": "4diBTgzUsw_YWmsxsFJTzA", "variant": "contract", "played_at": "2026-12-04T18:05:33.929998Z", "finished": false, "seats": [["Bo", false], ["Cy", false], ["Di", false]], "rounds": 2}, {"game_id": "KqJiM3LmXYTbwbl_zw_Uiw", "variant": "contract", "played_at": "2026-12-04T18:05:33.887647Z", "finished": true, "seats": [["Ann", true], ["Bo", true], ["Di", false]], "rounds": 7}, {"game_id": "Twc5v86BzDfXlgQn8GfHPQ", "variant": "contract", "played_at": "2026-12-04T18:05:33.841776Z", "finished": true, "seats": [["Ann", true], ["Bo", false], ["Cy", false]], "rounds": 7}]}, "rummy": {"stats": [{"name": "Cy", "games": 1, "finished": 1, "wins": 1, "rounds": 3, "rounds_out": 2, "points": 105, "best": 65, "worst": 0, "longest_streak": 1}, {"name": "Di", "games": 1, "finished": 1, "wins": 0, "rounds": 3, "rounds_out": 1, "points": 30, "best": 30, "worst": 0, "longest_streak": 0}], "ratings": {"cy": [{"mu": 27.635389493140497, "sigma": 8.06590141354368}, 1], "di": [{"mu": 22.364610506859503, "sigma": 8.06590141354368}, 1]}, "nights": [["2026-12-04", {"cy": 3.437685252509457, "di": -1.8330937337715376}]], "meetings": [{"player": "Cy", "opponent": "Di", "meetings": {"ahead": 1, "behind": 0, "level": 0}}, {"player": "Di", "opponent": "Cy", "meetings": {"ahead": 0, "behind": 1, "level": 0}}], "mixed": false, "count": 1, "recent": [{"game_id": "CMWx2r217GwLUBKp1W0JLw", "variant": "rummy", "played_at": "2026-12-04T18:05:33.945221Z", "finished": true, "seats": [["Cy", true], ["Di", false]], "rounds": 3}]}}, "last": {"game_id": "nxuk6rBpkmhK2NIu7w7LVA", "variant": "contract", "played_at": "2026-12-04T18:05:33.976190Z", "finished": false, "seats": [["Fay", false], ["Hal", false], ["Cy", false], ["Bo", false]], "rounds": 0}}','[{"id": "Twc5v86BzDfXlgQn8GfHPQ", "variant": "contract", "players": ["Ann", "Bo", "Cy"], "finished": true, "winner": "Ann", "winners": ["Ann"], "date": "2026-12-04T18:05:33.841776Z"}, {"id": "KqJiM3LmXYTbwbl_zw_Uiw", "variant": "contract", "players": ["Ann", "Bo", "Di"], "finished": true, "winner": null, "winners": ["Ann", "Bo"], "date": "2026-12-04T18:05:33.887647Z"}, {"id": "4diBTgzUsw_YWmsxsFJTzA", "variant": "contract", "players": ["Bo", "Cy", "Di"], "finished": false, "winner": null, "winners": [], "date": "2026-12-04T18:05:33.929998Z"}, {"id": "CMWx2r217GwLUBKp1W0JLw", "variant": "rummy", "players": ["Cy", "Di"], "finished": true, "winner": "Cy", "winners": ["Cy"], "date": "2026-12-04T18:05:33.945221Z"}, {"id": "CFIjUjGfTCt1AAg6aHA_SA", "variant": "contract", "players": ["Gus", "Ann", "Di", "Eli"], "finished": false, "winner": null, "winners": [], "date": "2026-12-04T18:05:33.973037Z"}, {"id": "nxuk6rBpkmhK2NIu7w7LVA", "variant": "contract", "players": ["Fay", "Hal", "Cy", "Bo"], "finished": false, "winner": null, "winners": [], "date": "2026-12-04T18:05:33.976190Z"}]','b2:6:26');
CREATE TABLE event_games (
	game_id VARCHAR(32) NOT NULL, 
	event_id VARCHAR(32) NOT NULL, 
	series INTEGER NOT NULL, 
	table_number INTEGER NOT NULL, 
	PRIMARY KEY (game_id), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	FOREIGN KEY(event_id) REFERENCES events (id) ON DELETE CASCADE
);
INSERT INTO "event_games" VALUES('CFIjUjGfTCt1AAg6aHA_SA','Mx0ckGFlrcYYyBh0qjhUFA',1,1);
INSERT INTO "event_games" VALUES('nxuk6rBpkmhK2NIu7w7LVA','Mx0ckGFlrcYYyBh0qjhUFA',1,2);
CREATE TABLE events (
	id VARCHAR(32) NOT NULL, 
	club_id VARCHAR(32) NOT NULL, 
	name VARCHAR(64) NOT NULL, 
	date DATE NOT NULL, 
	lang VARCHAR(8) NOT NULL, 
	version INTEGER NOT NULL, 
	state JSON NOT NULL, 
	table_tokens JSON NOT NULL, 
	created_at DATETIME NOT NULL, 
	updated_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(club_id) REFERENCES clubs (id) ON DELETE CASCADE
);
INSERT INTO "events" VALUES('Mx0ckGFlrcYYyBh0qjhUFA','8F2nKkEMxHuQ3aV3KNupAQ','Club night','2026-11-27','en',14,'{"name": "Club night", "date": "2026-11-27", "variant": "contract", "house_rules": {}, "series_count": 2, "table_size": {"preferred": 4, "smallest": 3, "largest": 5}, "series_rounds": 1, "scheme": {"id": "romme", "place_points": {"3": [4, 2, 1], "4": [5, 3, 2, 1], "5": [6, 4, 3, 2, 1]}, "bonus": [{"per_round": 10, "points": 3}, {"per_round": 20, "points": 2}, {"per_round": 30, "points": 1}], "tie_breaks": ["points_per_round", "tables_won"]}, "later_draws": "standings", "seed": 36, "players": [{"name": "Ann", "joined": 1, "left": null}, {"name": "Bo", "joined": 1, "left": null}, {"name": "Cy", "joined": 1, "left": null}, {"name": "Di", "joined": 1, "left": null}, {"name": "Eli", "joined": 1, "left": null}, {"name": "Fay", "joined": 1, "left": null}, {"name": "Gus", "joined": 1, "left": null}, {"name": "Hal", "joined": 1, "left": null}], "series": [{"number": 1, "method": "random", "seed": 257020, "started": true, "tables": [{"number": 1, "seats": ["Gus", "Ann", "Di", "Eli"], "first_dealer": 0, "game_id": "CFIjUjGfTCt1AAg6aHA_SA", "result": {"totals": [0, 10, 20, 30], "rounds": 1, "finished": true}}, {"number": 2, "seats": ["Fay", "Hal", "Cy", "Bo"], "first_dealer": 0, "game_id": "nxuk6rBpkmhK2NIu7w7LVA", "result": null}]}], "version": 14}','{"CFIjUjGfTCt1AAg6aHA_SA": "2fKOzZJVF9fCE1EzwIE-az01tCigCygQ7HbzReJZiyg=", "nxuk6rBpkmhK2NIu7w7LVA": "4ZL_tV_QTFNWMg90MVa0ZOJZneZaw87wIXNTm5kdn84="}','2026-12-04 18:05:33.965156','2026-12-04 18:05:33.985816');
CREATE TABLE "game_changes" (
	id INTEGER NOT NULL, 
	game_id VARCHAR(32) NOT NULL, 
	version INTEGER NOT NULL, 
	at DATETIME NOT NULL, 
	action VARCHAR(8) NOT NULL, 
	round INTEGER NOT NULL, 
	"before" JSON, 
	"after" JSON, 
	next_undo INTEGER, 
	PRIMARY KEY (id), 
	CONSTRAINT uq_game_changes_game_version UNIQUE (game_id, version), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);
INSERT INTO "game_changes" VALUES(1,'qjq-O6Z6AuFOKczhGmPvlQ',2,'2026-12-04 18:05:33.825042','add',1,'null','[{"penalty": 25}, {"went_out": true}, {"penalty": 40}]',NULL);
INSERT INTO "game_changes" VALUES(2,'Twc5v86BzDfXlgQn8GfHPQ',2,'2026-12-04 18:05:33.848938','add',1,'null','[{"went_out": true}, {"penalty": 10}, {"penalty": 20}]',NULL);
INSERT INTO "game_changes" VALUES(3,'Twc5v86BzDfXlgQn8GfHPQ',3,'2026-12-04 18:05:33.854732','add',2,'null','[{"penalty": 5}, {"went_out": true}, {"penalty": 15}]',2);
INSERT INTO "game_changes" VALUES(4,'Twc5v86BzDfXlgQn8GfHPQ',4,'2026-12-04 18:05:33.860403','add',3,'null','[{"went_out": true}, {"penalty": 30}, {"penalty": 10}]',3);
INSERT INTO "game_changes" VALUES(5,'Twc5v86BzDfXlgQn8GfHPQ',5,'2026-12-04 18:05:33.865816','add',4,'null','[{"penalty": 20}, {"penalty": 5}, {"went_out": true}]',4);
INSERT INTO "game_changes" VALUES(6,'Twc5v86BzDfXlgQn8GfHPQ',6,'2026-12-04 18:05:33.871169','add',5,'null','[{"went_out": true}, {"penalty": 15}, {"penalty": 25}]',5);
INSERT INTO "game_changes" VALUES(7,'Twc5v86BzDfXlgQn8GfHPQ',7,'2026-12-04 18:05:33.876779','add',6,'null','[{"penalty": 10}, {"went_out": true}, {"penalty": 5}]',6);
INSERT INTO "game_changes" VALUES(8,'Twc5v86BzDfXlgQn8GfHPQ',8,'2026-12-04 18:05:33.881922','add',7,'null','[{"went_out": true}, {"penalty": 20}, {"penalty": 40}]',7);
INSERT INTO "game_changes" VALUES(9,'KqJiM3LmXYTbwbl_zw_Uiw',2,'2026-12-04 18:05:33.893100','add',1,'null','[{"penalty": 10}, {"penalty": 10}, {"went_out": true}]',NULL);
INSERT INTO "game_changes" VALUES(10,'KqJiM3LmXYTbwbl_zw_Uiw',3,'2026-12-04 18:05:33.898067','add',2,'null','[{"went_out": true}, {"penalty": 20}, {"penalty": 5}]',2);
INSERT INTO "game_changes" VALUES(11,'KqJiM3LmXYTbwbl_zw_Uiw',4,'2026-12-04 18:05:33.903363','add',3,'null','[{"penalty": 20}, {"went_out": true}, {"penalty": 30}]',3);
INSERT INTO "game_changes" VALUES(12,'KqJiM3LmXYTbwbl_zw_Uiw',5,'2026-12-04 18:05:33.908707','add',4,'null','[{"penalty": 15}, {"penalty": 15}, {"went_out": true}]',4);
INSERT INTO "game_changes" VALUES(13,'KqJiM3LmXYTbwbl_zw_Uiw',6,'2026-12-04 18:05:33.913577','add',5,'null','[{"went_out": true}, {"penalty": 10}, {"penalty": 10}]',5);
INSERT INTO "game_changes" VALUES(14,'KqJiM3LmXYTbwbl_zw_Uiw',7,'2026-12-04 18:05:33.918728','add',6,'null','[{"penalty": 10}, {"went_out": true}, {"penalty": 25}]',6);
INSERT INTO "game_changes" VALUES(15,'KqJiM3LmXYTbwbl_zw_Uiw',8,'2026-12-04 18:05:33.924214','add',7,'null','[{"penalty": 5}, {"penalty": 5}, {"went_out": true}]',7);
INSERT INTO "game_changes" VALUES(16,'4diBTgzUsw_YWmsxsFJTzA',2,'2026-12-04 18:05:33.934892','add',1,'null','[{"penalty": 25}, {"went_out": true}, {"penalty": 5}]',NULL);
INSERT INTO "game_changes" VALUES(17,'4diBTgzUsw_YWmsxsFJTzA',3,'2026-12-04 18:05:33.939745','add',2,'null','[{"went_out": true}, {"penalty": 10}, {"penalty": 15}]',2);
INSERT INTO "game_changes" VALUES(18,'CMWx2r217GwLUBKp1W0JLw',2,'2026-12-04 18:05:33.950025','add',1,'null','[{"went_out": true}, {"penalty": 40}]',NULL);
INSERT INTO "game_changes" VALUES(19,'CMWx2r217GwLUBKp1W0JLw',3,'2026-12-04 18:05:33.954811','add',2,'null','[{"penalty": 30}, {"went_out": true}]',2);
INSERT INTO "game_changes" VALUES(20,'CMWx2r217GwLUBKp1W0JLw',4,'2026-12-04 18:05:33.960022','add',3,'null','[{"went_out": true}, {"penalty": 65}]',3);
INSERT INTO "game_changes" VALUES(21,'CFIjUjGfTCt1AAg6aHA_SA',2,'2026-12-04 18:05:33.982060','add',1,'null','[{"went_out": true}, {"penalty": 10}, {"penalty": 20}, {"penalty": 30}]',NULL);
CREATE TABLE game_requests (
	game_id VARCHAR(32) NOT NULL, 
	"key" VARCHAR(64) NOT NULL, 
	fingerprint VARCHAR(64) NOT NULL, 
	status INTEGER NOT NULL, 
	content_type VARCHAR(64), 
	body TEXT, 
	location VARCHAR(600), 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (game_id, "key"), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);
CREATE TABLE game_rounds (
	id INTEGER NOT NULL, 
	game_id VARCHAR(32) NOT NULL, 
	number INTEGER NOT NULL, 
	results JSON NOT NULL, 
	PRIMARY KEY (id), 
	CONSTRAINT uq_game_rounds_game_number UNIQUE (game_id, number), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);
INSERT INTO "game_rounds" VALUES(1,'qjq-O6Z6AuFOKczhGmPvlQ',1,'[{"penalty": 25}, {"went_out": true}, {"penalty": 40}]');
INSERT INTO "game_rounds" VALUES(2,'Twc5v86BzDfXlgQn8GfHPQ',1,'[{"went_out": true}, {"penalty": 10}, {"penalty": 20}]');
INSERT INTO "game_rounds" VALUES(3,'Twc5v86BzDfXlgQn8GfHPQ',2,'[{"penalty": 5}, {"went_out": true}, {"penalty": 15}]');
INSERT INTO "game_rounds" VALUES(4,'Twc5v86BzDfXlgQn8GfHPQ',3,'[{"went_out": true}, {"penalty": 30}, {"penalty": 10}]');
INSERT INTO "game_rounds" VALUES(5,'Twc5v86BzDfXlgQn8GfHPQ',4,'[{"penalty": 20}, {"penalty": 5}, {"went_out": true}]');
INSERT INTO "game_rounds" VALUES(6,'Twc5v86BzDfXlgQn8GfHPQ',5,'[{"went_out": true}, {"penalty": 15}, {"penalty": 25}]');
INSERT INTO "game_rounds" VALUES(7,'Twc5v86BzDfXlgQn8GfHPQ',6,'[{"penalty": 10}, {"went_out": true}, {"penalty": 5}]');
INSERT INTO "game_rounds" VALUES(8,'Twc5v86BzDfXlgQn8GfHPQ',7,'[{"went_out": true}, {"penalty": 20}, {"penalty": 40}]');
INSERT INTO "game_rounds" VALUES(9,'KqJiM3LmXYTbwbl_zw_Uiw',1,'[{"penalty": 10}, {"penalty": 10}, {"went_out": true}]');
INSERT INTO "game_rounds" VALUES(10,'KqJiM3LmXYTbwbl_zw_Uiw',2,'[{"went_out": true}, {"penalty": 20}, {"penalty": 5}]');
INSERT INTO "game_rounds" VALUES(11,'KqJiM3LmXYTbwbl_zw_Uiw',3,'[{"penalty": 20}, {"went_out": true}, {"penalty": 30}]');
INSERT INTO "game_rounds" VALUES(12,'KqJiM3LmXYTbwbl_zw_Uiw',4,'[{"penalty": 15}, {"penalty": 15}, {"went_out": true}]');
INSERT INTO "game_rounds" VALUES(13,'KqJiM3LmXYTbwbl_zw_Uiw',5,'[{"went_out": true}, {"penalty": 10}, {"penalty": 10}]');
INSERT INTO "game_rounds" VALUES(14,'KqJiM3LmXYTbwbl_zw_Uiw',6,'[{"penalty": 10}, {"went_out": true}, {"penalty": 25}]');
INSERT INTO "game_rounds" VALUES(15,'KqJiM3LmXYTbwbl_zw_Uiw',7,'[{"penalty": 5}, {"penalty": 5}, {"went_out": true}]');
INSERT INTO "game_rounds" VALUES(16,'4diBTgzUsw_YWmsxsFJTzA',1,'[{"penalty": 25}, {"went_out": true}, {"penalty": 5}]');
INSERT INTO "game_rounds" VALUES(17,'4diBTgzUsw_YWmsxsFJTzA',2,'[{"went_out": true}, {"penalty": 10}, {"penalty": 15}]');
INSERT INTO "game_rounds" VALUES(18,'CMWx2r217GwLUBKp1W0JLw',1,'[{"went_out": true}, {"penalty": 40}]');
INSERT INTO "game_rounds" VALUES(19,'CMWx2r217GwLUBKp1W0JLw',2,'[{"penalty": 30}, {"went_out": true}]');
INSERT INTO "game_rounds" VALUES(20,'CMWx2r217GwLUBKp1W0JLw',3,'[{"went_out": true}, {"penalty": 65}]');
INSERT INTO "game_rounds" VALUES(21,'CFIjUjGfTCt1AAg6aHA_SA',1,'[{"went_out": true}, {"penalty": 10}, {"penalty": 20}, {"penalty": 30}]');
CREATE TABLE games (
	id VARCHAR(32) NOT NULL, 
	edit_token_hash VARCHAR(64) NOT NULL, 
	variant VARCHAR(32) NOT NULL, 
	house_rules JSON NOT NULL, 
	players JSON NOT NULL, 
	first_dealer INTEGER NOT NULL, 
	lang VARCHAR(8) NOT NULL, 
	version INTEGER NOT NULL, 
	created_at DATETIME NOT NULL, 
	updated_at DATETIME NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO "games" VALUES('qjq-O6Z6AuFOKczhGmPvlQ','543478e9fcf2e9b0fd5a6c645fbe8733b95edb5118e60721f2e1571970bef63b','shanghai','{}','["Zo\u00eb", "J\u00fcrgen", "Ana"]',0,'en',2,'2026-12-04 18:05:33.813516','2026-12-04 18:05:33.826050');
INSERT INTO "games" VALUES('Twc5v86BzDfXlgQn8GfHPQ','b16c30e3ed6ee5a37674392e189a29301a0fe5eb3a9b1438fbe975ee85142d22','contract','{"last_round_goes_out": false}','["Ann", "Bo", "Cy"]',0,'en',8,'2026-12-04 18:05:33.841776','2026-12-04 18:05:33.882134');
INSERT INTO "games" VALUES('KqJiM3LmXYTbwbl_zw_Uiw','5c8703ae5e9f59d7f9647736deb631b405837a3fa26f15b09bd1168748430122','contract','{"last_round_goes_out": false}','["Ann", "Bo", "Di"]',0,'en',8,'2026-12-04 18:05:33.887647','2026-12-04 18:05:33.924436');
INSERT INTO "games" VALUES('4diBTgzUsw_YWmsxsFJTzA','f3835e9a3dd751bef173500db9cb500f05d4a986550762e72f3fddb9fa09621e','contract','{"last_round_goes_out": false}','["Bo", "Cy", "Di"]',0,'en',3,'2026-12-04 18:05:33.929998','2026-12-04 18:05:33.940066');
INSERT INTO "games" VALUES('CMWx2r217GwLUBKp1W0JLw','ce832fc14c2666b72fe6df024c898e72bfd8495b5b3c7edf4420f738c90c557d','rummy','{}','["Cy", "Di"]',0,'en',4,'2026-12-04 18:05:33.945221','2026-12-04 18:05:33.960263');
INSERT INTO "games" VALUES('CFIjUjGfTCt1AAg6aHA_SA','3b1876b6eb133f73b5ff0d05e1d34f9b7b511aeecf3d9adab25e153c73c78d1e','contract','{}','["Gus", "Ann", "Di", "Eli"]',0,'en',2,'2026-12-04 18:05:33.973037','2026-12-04 18:05:33.982282');
INSERT INTO "games" VALUES('nxuk6rBpkmhK2NIu7w7LVA','222e1d2840e4bc3a35ed53c66d0fb64e2496790f250707a340edb9fc870ee4a6','contract','{}','["Fay", "Hal", "Cy", "Bo"]',0,'en',1,'2026-12-04 18:05:33.976190','2026-12-04 18:05:33.976190');
CREATE TABLE games_alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT games_alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "games_alembic_version" VALUES('0005_events');
CREATE INDEX ix_games_updated_at ON games (updated_at);
CREATE INDEX ix_game_requests_created_at ON game_requests (created_at);
CREATE INDEX ix_club_games_club_played ON club_games (club_id, played_at, game_id);
CREATE INDEX ix_game_changes_game_id ON game_changes (game_id);
CREATE INDEX ix_events_club_date ON events (club_id, date);
COMMIT;
